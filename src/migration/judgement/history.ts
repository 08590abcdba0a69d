/**
 * Rollout history you can read: consecutive identical gate failures (same step, same failed
 * gates, nothing moved) are one "held since T by G (N evaluations)" entry, not one row per
 * evaluation. The console, /admin/rollout and the report show the same entries.
 */
import { failedGateNames, isNote } from '../rollout/repeats.js';
import type { Position } from '../rollout/state.js';
import { positionKey } from '../rollout/steps.js';
import type { DecisionLike, Hold } from './types.js';

/** One entry of the history: a decision, or a run of identical gate failures. */
export type HistoryEntry<D extends DecisionLike = DecisionLike> =
  | { readonly kind: 'decision'; readonly decision: D }
  | { readonly kind: 'held'; readonly operation: string; readonly at: Position; readonly gates: readonly string[]; readonly since: string; readonly until: string; readonly evaluations: number; readonly last: D };

/** The failed gates' names of a gate-failed decision that moved nothing, else null. */
function heldGates(decision: DecisionLike): string[] | null {
  if (decision.kind !== 'gate-failed' || positionKey(decision.from) !== positionKey(decision.to)) return null;
  return failedGateNames(decision);
}

/** The evaluations a decision stands for (a repeated failure kept as one event, rollout/repeats.ts) and the first one's time. */
const evaluationsOf = (decision: DecisionLike): number => decision.count ?? 1;
const firstTime = (decision: DecisionLike): string => decision.since ?? decision.time;

const sameGates = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((g, i) => g === b[i]);

/** Decisions of one operation (oldest first) with each run of identical held failures made one entry. */
export function collapseHistory<D extends DecisionLike & { readonly operation: string }>(decisions: readonly D[]): HistoryEntry<D>[] {
  const out: HistoryEntry<D>[] = [];
  const lastHeld = new Map<string, number>();
  for (const decision of decisions) {
    const gates = heldGates(decision);
    const at = lastHeld.get(decision.operation);
    const open = at === undefined ? undefined : out[at];
    if (gates && open?.kind === 'held' && positionKey(open.at) === positionKey(decision.from) && sameGates(open.gates, gates)) {
      out[at!] = { ...open, until: decision.time, evaluations: open.evaluations + evaluationsOf(decision), last: decision };
      continue;
    }
    if (gates) {
      lastHeld.set(decision.operation, out.length);
      out.push({ kind: 'held', operation: decision.operation, at: decision.from, gates, since: firstTime(decision), until: decision.time, evaluations: evaluationsOf(decision), last: decision });
      continue;
    }
    // A decision that is not a held failure ends the operation's run (the next failure starts a new entry).
    if (decision.kind !== 'holds-nobody') lastHeld.delete(decision.operation);
    out.push({ kind: 'decision', decision });
  }
  return out;
}

/** The run of held failures an operation's decisions end with (at its step in force), or null when its last decision is another. */
export function trailingHold(decisions: readonly DecisionLike[], at: Position): Hold | null {
  let run = null as { gates: string[]; since: string; evaluations: number } | null;
  for (let i = decisions.length - 1; i >= 0; i--) {
    const decision = decisions[i]!;
    if (isNote(decision.kind)) continue;
    const gates = heldGates(decision);
    if (!gates || positionKey(decision.from) !== positionKey(at) || (run && !sameGates(run.gates, gates))) break;
    run = { gates, since: firstTime(decision), evaluations: (run?.evaluations ?? 0) + evaluationsOf(decision) };
  }
  return run;
}

/** `held since 12:00:05Z by shadowAgreement (17 evaluations)`. */
export function holdText(hold: Hold): string {
  const gates = hold.gates.length === 0 ? 'a gate' : hold.gates.join(', ');
  return hold.since === null ? `held by ${gates}` : `held since ${hold.since} by ${gates} (${hold.evaluations} evaluation${hold.evaluations === 1 ? '' : 's'})`;
}

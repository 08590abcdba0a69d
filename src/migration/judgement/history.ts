/**
 * Rollout history you can read: consecutive identical gate failures (same step, same failed
 * gates, nothing moved) are one "held since T by G (N evaluations)" entry, not one row per
 * evaluation. The console, /admin/rollout and the report show the same entries.
 */
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
  return [...new Set((decision.gates ?? []).filter((g) => g.outcome === 'fail').map((g) => g.gate))].sort();
}

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
      out[at!] = { ...open, until: decision.time, evaluations: open.evaluations + 1, last: decision };
      continue;
    }
    if (gates) {
      lastHeld.set(decision.operation, out.length);
      out.push({ kind: 'held', operation: decision.operation, at: decision.from, gates, since: decision.time, until: decision.time, evaluations: 1, last: decision });
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
    if (decision.kind === 'holds-nobody' || decision.kind === 'frozen' || decision.kind === 'unfrozen' || decision.kind === 'restored') continue;
    const gates = heldGates(decision);
    if (!gates || positionKey(decision.from) !== positionKey(at) || (run && !sameGates(run.gates, gates))) break;
    run = { gates, since: decision.time, evaluations: (run?.evaluations ?? 0) + 1 };
  }
  return run;
}

/** `held since 12:00:05Z by shadowAgreement (17 evaluations)`. */
export function holdText(hold: Hold): string {
  const gates = hold.gates.length === 0 ? 'a gate' : hold.gates.join(', ');
  return hold.since === null ? `held by ${gates}` : `held since ${hold.since} by ${gates} (${hold.evaluations} evaluation${hold.evaluations === 1 ? '' : 's'})`;
}

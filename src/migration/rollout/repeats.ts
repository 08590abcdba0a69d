/**
 * A repeated identical failure is one event with a count (issue 45): under a lasting fault a step
 * fails the same way at every evaluation (a shadow step starts again every period), and one event
 * per period would fill the kept events (`rollout.keepEvents`), the console's "Recent moves" and
 * the report. A gate-failed decision that repeats its operation's previous event, notes aside (same kind, same
 * from → to, the same failed gates) takes that event's place: `count` evaluations, `since` the
 * first, `last` (and `time`) the latest, the latest figures and reason. The runner keeps its
 * events so (memory, file and Redis stores alike), and the report reads its rollout lines so.
 */
import type { GateResult, Position } from './state.js';
import { positionKey } from './steps.js';

/** What the rule reads of an event or a report's rollout line. */
export interface Repeatable {
  readonly time: string;
  readonly operation: string;
  readonly kind: string;
  readonly from: Position;
  readonly to: Position;
  readonly gates?: readonly GateResult[] | undefined;
  /** Evaluations this event stands for (absent: one). */
  readonly count?: number | undefined;
  /** ISO time of the first of them (absent: `time`). */
  readonly since?: string | undefined;
  /** ISO time of the latest of them (absent: `time`). */
  readonly last?: string | undefined;
}

/** Notes, not decisions: a step that holds nobody, a freeze and its end, a state put back. A run of failures goes on across them. */
const NOTES: ReadonlySet<string> = new Set(['holds-nobody', 'frozen', 'unfrozen', 'restored']);
export const isNote = (kind: string): boolean => NOTES.has(kind);

/** The names of the gates that failed, sorted, once each. */
export function failedGateNames(event: Pick<Repeatable, 'gates'>): string[] {
  return [...new Set((event.gates ?? []).filter((g) => g.outcome === 'fail').map((g) => g.gate))].sort();
}

/** Whether `next` repeats `previous`: both gate-failed decisions of one operation, from and to the same steps, with the same gates failed. */
export function repeatsFailure(previous: Repeatable, next: Repeatable): boolean {
  if (previous.kind !== 'gate-failed' || next.kind !== 'gate-failed' || previous.operation !== next.operation) return false;
  if (positionKey(previous.from) !== positionKey(next.from) || positionKey(previous.to) !== positionKey(next.to)) return false;
  return failedGateNames(previous).join() === failedGateNames(next).join();
}

const earlier = (a: string, b: string): string => (Date.parse(a) <= Date.parse(b) ? a : b);

/**
 * `next` in place of the `previous` it repeats: its figures, with the evaluations of both. A `next`
 * that already carries its count (a merged event read back from a log) is not counted twice.
 */
export function mergeRepeat<T extends Repeatable>(previous: T, next: T): T {
  const count = Math.max(next.count ?? 1, (previous.count ?? 1) + 1);
  return { ...next, count, since: earlier(previous.since ?? previous.time, next.since ?? next.time), last: next.time };
}

/** An event kept: appended, or in place of the event it repeats (which it then follows as the newest). */
export interface EventWrite<T> {
  readonly event: T;
  readonly replaces: T | null;
}

/**
 * `added` kept after `events` (oldest first), the last `keep` of them: each repeat of its
 * operation's latest event replaces it (and moves to the end). The writes say what to store.
 */
export function keepEvents<T extends Repeatable>(events: readonly T[], added: readonly T[], keep: number): { events: T[]; writes: Array<EventWrite<T>> } {
  const out = [...events];
  const writes: Array<EventWrite<T>> = [];
  for (const event of added) {
    const at = out.findLastIndex((e) => e.operation === event.operation && !isNote(e.kind));
    const previous = at < 0 ? undefined : out[at];
    if (previous !== undefined && repeatsFailure(previous, event)) {
      const merged = mergeRepeat(previous, event);
      out.splice(at, 1);
      out.push(merged);
      writes.push({ event: merged, replaces: previous });
    } else {
      out.push(event);
      writes.push({ event, replaces: null });
    }
  }
  return { events: out.slice(-keep), writes };
}

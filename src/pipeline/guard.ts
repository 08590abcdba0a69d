/**
 * A guard looks at a request as it arrived, before it is dispatched, and either lets it through
 * (undefined) or answers it itself (a refusal, a redirect). Guards are plain synchronous
 * functions of the arrival, run in order by the request context, not Hono middleware: a chain of
 * async middleware costs a promise and a closure per step on every request, and none of these
 * checks waits for anything.
 */
import type { Arrival } from '../gateway/arrival.js';
import type { Outcome } from './parts.js';

export type Guard = (arrival: Arrival) => Outcome | undefined;

/** Runs the guards in order; the first answer wins. */
export function runGuards(guards: readonly Guard[], arrival: Arrival): Outcome | undefined {
  for (const guard of guards) {
    const outcome = guard(arrival);
    if (outcome) return outcome;
  }
  return undefined;
}

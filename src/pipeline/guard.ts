/**
 * A guard looks at a request before it is dispatched and either lets it through (undefined) or
 * answers it itself (a refusal, a redirect). Guards are plain synchronous functions run in order
 * by the request context, not Hono middleware: a chain of async middleware costs a promise and a
 * closure per step on every request, and none of these checks waits for anything.
 */
import type { Answer } from '../http/answer.js';
import type { Context } from 'hono';
import type { GatewayEnv } from '../gateway/env.js';

export type Guard = (c: Context<GatewayEnv>) => Answer | undefined;

/** Runs the guards in order; the first answer wins. */
export function runGuards(guards: readonly Guard[], c: Context<GatewayEnv>): Answer | undefined {
  for (const guard of guards) {
    const answer = guard(c);
    if (answer) return answer;
  }
  return undefined;
}

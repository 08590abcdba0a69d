/**
 * Page cache keys, made of the request that fills the page (nginx keys on the request it
 * forwards): the side that answers, the method, the rendered path and query parameters, and every
 * header a fill sends that the answer may depend on. Two requests share a page exactly when the
 * requests forwarded for them are the same, so no parameter or header the key ignores can reach
 * the upstream (src/request/render-legacy.ts renders a shared fill from the canonical request
 * alone). The api2 side maps the same canonical values, so the same key holds for it.
 *
 * Never a secret: the api_key is not in the rendered parameters (only the plan class it needs),
 * and a user's Authorization appears only as a keyed hash. The key is a JSON array (structured,
 * so no two different requests produce the same string).
 */
import type { LegacyForward } from '../request/render-legacy.js';

export interface PageKeyContext {
  /** Who answers: legacy bytes and api2-mapped bytes are different answers. */
  readonly side: string;
  /** `paid` when paid-plan parameters are used, else `any`: without them every plan gets the same page. */
  readonly plan: 'any' | 'paid';
  /** Keyed hash of the Authorization header (IsBookmark depends on the user), or null. */
  readonly userHash: string | null;
}

/**
 * Headers of a fill that are not in the key as they are. DECISION: `authorization` is keyed as a
 * hash (userHash); `x-forwarded-for` is not keyed (an answer that depends on the client's address
 * must say so with Vary, and such answers are not stored).
 */
const NOT_KEYED = new Set(['authorization', 'x-forwarded-for']);

export function pageKey(fill: LegacyForward, context: PageKeyContext): string {
  const parts: (string | null)[] = [context.side, context.plan, context.userHash, fill.method, fill.path, fill.params];
  for (const name of Object.keys(fill.headers).sort()) {
    if (!NOT_KEYED.has(name)) parts.push(name, fill.headers[name] as string);
  }
  return JSON.stringify(parts);
}

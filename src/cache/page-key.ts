/**
 * Page cache keys, made of the request that fills the page (nginx keys on the request it
 * forwards): the side that answers, the method, the rendered path and query parameters, and every
 * header a shared fill sends that the answer may depend on. Two requests share a page exactly when
 * the requests forwarded for them are the same, so no parameter or header the key ignores can reach
 * the upstream (src/request/forward-request.ts renders a shared fill from the canonical request
 * alone). The api2 side maps the same canonical values, so the same key holds for it.
 *
 * The key is made from the canonical request's facts, rendering only the target: a HIT renders no
 * forward request (headers, full target, body); the fill does, on a MISS. The facts below are the
 * headers a shared fill renders, in name order; test/cache-key-equals-the-forwarded-request
 * .property.test.ts shows key equality is fill equality.
 *
 * Never a secret: the api_key is not in the rendered parameters (only the plan class it needs),
 * and a user's Authorization appears only as a keyed hash. The key is a JSON array (structured,
 * so no two different requests produce the same string).
 */
import { rememberedPerOwner } from '../hot-path.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import { acceptOf, renderForwardTarget } from '../request/forward-request.js';

export interface PageKeyContext {
  /** Who answers: legacy bytes and api2-mapped bytes are different answers. */
  readonly side: string;
  /** `paid` when paid-plan parameters are used, else `any`: without them every plan gets the same page. */
  readonly plan: 'any' | 'paid';
  /** Keyed hash of the Authorization header (IsBookmark depends on the user), or null. */
  readonly userHash: string | null;
}

/**
 * The key of the page a shared fill of `request` fills. DECISION: of the fill's headers,
 * `authorization` is keyed as a hash (userHash); `x-forwarded-for` is not keyed (an answer that
 * depends on the client's address must say so with Vary, and such answers are not stored).
 */
export function pageKey(request: CanonicalRequest, context: PageKeyContext): string {
  // Frozen parameters are a remembered check's (src/request/canonical-request.ts), shared by every
  // request with the same raw facts: the key is then made once per them and the facts below.
  if (!Object.isFrozen(request.params)) return keyOf(request, context);
  return keyPerParams(request.params, otherFacts(request, context), { request, context });
}

/**
 * Everything `keyOf` reads of a request beyond its parameters, in one text, each fact of open
 * length preceded by its length (the host last): equal texts are equal facts.
 */
function otherFacts(request: CanonicalRequest, { side, plan, userHash }: PageKeyContext): string {
  const { method, json, encoding } = request;
  const { template } = request.match.form;
  const { host, proto } = request.forwarded;
  const user = userHash === null ? '-' : `${userHash.length}:${userHash}`;
  return `${side.length}:${side}${plan}${user}${method.length}:${method}${template.length}:${template}${json ? 'j' : 'x'}${encoding.length}:${encoding}${proto.length}:${proto}${host === undefined ? '-' : `+${host}`}`;
}

const keyPerParams = rememberedPerOwner(32, 512, (_params: object, _facts: string, { request, context }: { request: CanonicalRequest; context: PageKeyContext }) => keyOf(request, context));

function keyOf(request: CanonicalRequest, context: PageKeyContext): string {
  const { method, path, params } = renderForwardTarget(request);
  const parts: (string | null)[] = [context.side, context.plan, context.userHash, method, path, params, 'accept', acceptOf(request), 'accept-encoding', request.encoding];
  const { host, proto } = request.forwarded;
  if (host) parts.push('x-forwarded-host', host);
  parts.push('x-forwarded-proto', proto);
  return JSON.stringify(parts);
}

/**
 * The gateway's own pure stages over a raw request target, for tests of the canonical request:
 * normalise the target, route it, canonicalise it, render the legacy request and its page key.
 */
import { pageKey } from '../../src/cache/page-key.js';
import type { PageKeyContext } from '../../src/cache/page-key.js';
import { createSecretHasher } from '../../src/cache/secret-hasher.js';
import { nodeHmacSha256 } from '../../src/request/hmac-node.js';
import { RouteTable } from '../../src/catalogue/route-table.js';
import { normaliseTarget } from '../../src/http/target.js';
import { wantsJson } from '../../src/legacy/answer-body.js';
import { canonicalRequest } from '../../src/request/canonical-request.js';
import type { CanonicalRequest } from '../../src/request/canonical-request.js';
import type { Refusal, UnknownParameters } from '../../src/request/canonicalise.js';
import { credentialsOf } from '../../src/request/credentials.js';
import { readPairs } from '../../src/request/pairs.js';
import { traceFrom } from '../../src/request/trace-context.js';
import { renderForwardRequest } from '../../src/request/forward-request.js';
import type { LegacyForward } from '../../src/request/forward-request.js';

const routes = new RouteTable();

export interface RawRequest {
  readonly method?: string;
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly unknown?: UnknownParameters;
  /** The scheme the client used (X-Forwarded-Proto of the fill); http unless given. */
  readonly scheme?: 'http' | 'https';
}

/** The canonical request of a raw one, or the refusal the gateway answers with. */
export function canonicalOf(raw: RawRequest): CanonicalRequest | Refusal {
  const method = raw.method ?? 'GET';
  const headers = raw.headers ?? {};
  const normal = normaliseTarget(raw.target);
  if (!normal.ok) throw new Error(normal.reason);
  const match = routes.match(method, normal.path);
  if (!match) throw new Error(`no route for ${method} ${raw.target}`);
  const body = raw.body === undefined ? null : new TextEncoder().encode(raw.body);
  const pairs = readPairs(normal.query);
  const facts = {
    requestId: 'test-request',
    trace: traceFrom(headers['traceparent'], headers['tracestate']),
    method,
    routeMode: 'legacy' as const,
    headers,
    pairs,
    credentials: credentialsOf(pairs, headers['authorization']),
    json: wantsJson(headers['accept'], headers['content-type']),
    client: { forwardedFor: '127.0.0.1', scheme: raw.scheme ?? 'http', host: headers['host'] ?? 'gateway.test' },
  };
  return canonicalRequest(facts, match, body, raw.unknown ?? 'drop');
}

export function mustCanonical(raw: RawRequest): CanonicalRequest {
  const request = canonicalOf(raw);
  if (!request.ok) throw new Error(request.message);
  return request as CanonicalRequest;
}

/** What a shared cache fill of this request sends to the legacy backend. */
export function fillOf(raw: RawRequest): LegacyForward {
  return renderForwardRequest(mustCanonical(raw), { clientHeaders: raw.headers ?? {}, shared: true, rawBody: null });
}

/** What the gateway forwards for this request answered to its own client. */
export function forwardOf(raw: RawRequest): LegacyForward {
  const body = raw.body === undefined ? null : new TextEncoder().encode(raw.body);
  return renderForwardRequest(mustCanonical(raw), { clientHeaders: raw.headers ?? {}, shared: false, rawBody: body });
}

/** Keyed hashes as the search cache makes them (src/cache/search-cache.ts). */
const userHashOf = createSecretHasher(nodeHmacSha256);

/** The page key of a request, its user hash and plan class made as the search cache makes them. */
export function keyOf(raw: RawRequest, context: Partial<PageKeyContext> = {}): string {
  const request = mustCanonical(raw);
  const userHash = request.authorization ? userHashOf(`authorization\n${request.authorization}`) : null;
  return pageKey(request, { side: 'legacy', plan: request.paidParams ? 'paid' : 'any', userHash, ...context });
}

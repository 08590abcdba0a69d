/**
 * The canonical request: the checked parameters (canonicalise.ts) with the request's facts that
 * answers depend on, each brought to a small closed set. Built once per catalogued request, by
 * `canonicalRequest` alone, from the request's arrival; immutable after. Everything the gateway
 * sends, keys or records of it is rendered from it.
 */
import { mappingFor } from '../catalogue/movability.js';
import type { OperationMapping } from '../../mappings/types.js';
import type { RouteMatch } from '../catalogue/route-table.js';
import type { RouteMode } from '../config/schema.js';
import type { ClientView } from '../http/client-view.js';
import type { ForwardedFor } from '../http/headers.js';
import type { RequestTrail, TraceContext } from './trace-context.js';
import { canonicalise } from './canonicalise.js';
import type { CanonicalParams, Refusal, UnknownParameters } from './canonicalise.js';
import type { Credentials } from './credentials.js';
import { negotiateEncoding } from './encoding.js';
import type { ContentCoding } from '../legacy/answer-terms.js';
import type { Pair } from './pairs.js';

export interface CanonicalRequest extends CanonicalParams {
  /** As received (HEAD stays HEAD; it is routed as GET). */
  readonly method: string;
  /** Representation: JSON, or XML (the legacy default). */
  readonly json: boolean;
  readonly encoding: ContentCoding;
  /** Who the client is, as forwarded (X-Forwarded-For/-Proto/-Host). */
  readonly forwarded: ForwardedFor;
  /** The route's mode, as the arrival learned it. */
  readonly routeMode: RouteMode;
  /** The operation's api2 mapping; undefined for a legacy-only operation. */
  readonly mapping: OperationMapping | undefined;
  /** What identifies the request on every upstream call (X-Request-Id, traceparent, User-Agent); never part of a cache key. */
  readonly trail: RequestTrail;
}

/** What the canonical request is made from: the facts of an arrival (src/gateway/arrival.ts). */
export interface ArrivedFacts {
  readonly requestId: string;
  readonly trace: TraceContext;
  readonly method: string;
  /** Set whenever the request is routed (`match`). */
  readonly routeMode: RouteMode | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly pairs: readonly Pair[];
  readonly credentials: Credentials;
  readonly json: boolean;
  readonly client: ClientView;
}

/** The one builder of a canonical request, or the legacy refusal (400, 403) of the request. */
export function canonicalRequest(facts: ArrivedFacts, match: RouteMatch, body: Uint8Array | null, unknown: UnknownParameters): CanonicalRequest | Refusal {
  const { headers, client } = facts;
  const checked = canonicalise(match, { query: facts.pairs, credentials: facts.credentials, contentType: headers['content-type'], body }, unknown);
  if (!checked.ok) return checked;
  const { ok, apiKey, user, authorization, params, values, bodyKind, paidParams } = checked;
  return {
    ok,
    match,
    apiKey,
    user,
    authorization,
    params,
    values,
    bodyKind,
    paidParams,
    method: facts.method,
    json: facts.json,
    encoding: negotiateEncoding(headers['accept-encoding']),
    forwarded: { clientChain: client.forwardedFor, proto: client.scheme, host: client.host },
    routeMode: facts.routeMode ?? 'legacy',
    mapping: mappingFor(match.operation.id),
    trail: trailOf(facts),
  };
}

/** What every upstream call of the request carries so that it can be followed (uncatalogued ones too). */
export function trailOf(facts: Pick<ArrivedFacts, 'requestId' | 'trace' | 'headers'>): RequestTrail {
  return { requestId: facts.requestId, trace: facts.trace, userAgent: facts.headers['user-agent'] };
}

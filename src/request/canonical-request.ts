/**
 * The canonical request: the checked parameters (canonicalise.ts) with the request's facts that
 * answers depend on, each brought to a small closed set. Built once per catalogued request, by
 * `canonicalRequest` alone, from the request's arrival; immutable after. Everything the gateway
 * sends, keys or records of it is rendered from it.
 */
import { mappingFor } from '../catalogue/movability.js';
import { rememberedPerOwner } from '../hot-path.js';
import { credentialsOf } from './credentials.js';
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
  /**
   * The normalised path routed: with it, a request without a body whose pairs are frozen is
   * checked once per distinct request (see `checkedOnce`); without it, every time.
   */
  readonly path?: string | undefined;
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
  const contentType = headers['content-type'];
  // Pairs that cannot change (frozen: a repeated query's, src/gateway/arrival.ts) are checked once per the other facts.
  const checked =
    body === null && facts.path !== undefined && Object.isFrozen(facts.pairs)
      ? checkedOnce(facts.pairs, otherFactsKey(facts.method, facts.path, facts.credentials.authorization, contentType, unknown), { match, facts, contentType, unknown })
      : canonicalise(match, { query: facts.pairs, credentials: facts.credentials, contentType, body }, unknown);
  if (!checked.ok) return checked;
  const { ok, apiKey, user, authorization, params, values, bodyKind, paidParams } = checked;
  return {
    ok,
    // This request's own match (a remembered check may hold an earlier, equal one).
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

/** What `canonicalise` reads of a request without a body, given its raw facts. */
interface CheckInputs {
  readonly match: RouteMatch;
  readonly facts: ArrivedFacts;
  readonly contentType: string | undefined;
  readonly unknown: UnknownParameters;
}

/**
 * Every fact `canonicalise` reads of a request without a body besides its pairs, in one text:
 * the method and the normalised path (they make the match: its operation and path parameters),
 * the Authorization header (with the pairs' api keys, the credentials), the Content-Type, and the
 * config's unknown-parameter rule. Each of open length is preceded by its length, so no two lists
 * of facts give the same text.
 */
export function otherFactsKey(method: string, path: string, authorization: string | undefined, contentType: string | undefined, unknown: UnknownParameters): string {
  const auth = authorization === undefined ? '-' : `${authorization.length}:${authorization}`;
  const type = contentType === undefined ? '-' : `${contentType.length}:${contentType}`;
  return `${unknown} ${method.length}:${method}${path.length}:${path}${auth}${type}`;
}

/**
 * `canonicalise` of a request without a body, remembered per its frozen pairs and the text of its
 * other facts (a pure function of them: the credentials are the pairs' api keys and the
 * Authorization header): a repeated request is not checked or rendered again. The answer is
 * frozen, as every request with the same facts shares it.
 */
const checkedOnce = rememberedPerOwner(4, 512, (pairs: readonly Pair[], _key: string, { match, facts, contentType, unknown }: CheckInputs) =>
  frozen(canonicalise(match, { query: pairs, credentials: credentialsOf(pairs, facts.credentials.authorization), contentType, body: null }, unknown)),
);

function frozen(checked: CanonicalParams | Refusal): CanonicalParams | Refusal {
  if (checked.ok) {
    for (const param of checked.params) Object.freeze(param);
    Object.freeze(checked.params);
    Object.freeze(checked.values);
  } else if (checked.errors) Object.freeze(checked.errors);
  return Object.freeze(checked);
}

/** What every upstream call of the request carries so that it can be followed (uncatalogued ones too). */
export function trailOf(facts: Pick<ArrivedFacts, 'requestId' | 'trace' | 'headers'>): RequestTrail {
  return { requestId: facts.requestId, trace: facts.trace, userAgent: facts.headers['user-agent'] };
}

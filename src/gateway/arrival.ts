/**
 * What the gateway knows of a request as it arrives, built once by `arrive` from what the runtime
 * hands over (src/gateway/env.ts, RuntimeArrival) before any stage runs: the guards decide over
 * it, dispatch makes it canonical (src/request/canonical-request.ts), and the request record is
 * written from it and the outcome (src/gateway/request-record.ts). Never changed once built.
 */
import type { OperationId } from '../catalogue/operations.js';
import type { RouteMatch, RouteTable } from '../catalogue/route-table.js';
import type { RouteMode } from '../config/schema.js';
import { viewClient } from '../http/client-view.js';
import type { ClientView } from '../http/client-view.js';
import { endToEndHeaders } from '../http/headers.js';
import type { PeerMatcher } from '../http/trusted-proxies.js';
import { wantsJson } from '../legacy/answer-body.js';
import { REQUEST_ID_HEADER, requestIdFrom } from '../request/request-id.js';
import { TRACEPARENT_HEADER, TRACESTATE_HEADER, traceFrom } from '../request/trace-context.js';
import type { TraceContext } from '../request/trace-context.js';
import { credentialsOf } from '../request/credentials.js';
import type { Credentials } from '../request/credentials.js';
import { readPairs } from '../request/pairs.js';
import type { Pair } from '../request/pairs.js';
import type { RuntimeArrival } from './env.js';
import { rememberedWhenShort } from '../hot-path.js';

type QueryFacts = { readonly pairs: readonly Pair[]; readonly credentials: Credentials };

/** The query's pairs and the credentials, frozen: shared by every request with the same two. */
function readQueryFacts(query: string, authorization: string | undefined): QueryFacts {
  const pairs = Object.freeze(readPairs(query).map((pair) => Object.freeze(pair)));
  const credentials = credentialsOf(pairs, authorization);
  Object.freeze(credentials.apiKeys);
  if (credentials.user) Object.freeze(credentials.user);
  return { pairs, credentials: Object.freeze(credentials) };
}

/**
 * The query's pairs and the credentials, read once per distinct query text and Authorization
 * header (a pure function of the two): a repeated request reuses them. Without Authorization (most
 * requests) the query text is the key as it is; with it, the header after its length, then the query.
 */
const withoutAuthorization = rememberedWhenShort(1024, 512, (query: string) => readQueryFacts(query, undefined));
const withAuthorization = rememberedWhenShort(1024, 512, (_key: string, raw: { readonly query: string; readonly authorization: string }) => readQueryFacts(raw.query, raw.authorization));

function queryFactsOf(query: string, authorization: string | undefined): QueryFacts {
  if (authorization === undefined) return withoutAuthorization(query, query);
  return withAuthorization(`${authorization.length}:${authorization}${query}`, { query, authorization });
}

export interface Arrival {
  /** From `X-Request-Id` when acceptable, else generated. */
  readonly requestId: string;
  /** From `traceparent`/`tracestate` when valid, else a new trace (src/request/trace-context.ts). */
  readonly trace: TraceContext;
  /** Epoch milliseconds at arrival. */
  readonly startedAt: number;
  /** `performance.now()` at arrival. */
  readonly startedPerf: number;
  readonly method: string;
  /** End-to-end request headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The client reads JSON, else XML (the legacy rule over Accept and Content-Type: src/legacy/answer-body.ts). */
  readonly json: boolean;
  /** False when the target was refused before routing (then `path` is empty). */
  readonly routed: boolean;
  /** The normalised path, as routed. */
  readonly path: string;
  /** The raw query string, without `?`. */
  readonly query: string;
  /** The query's parameters, decoded, in order (src/request/pairs.ts). */
  readonly pairs: readonly Pair[];
  /** The api keys and the Authorization header, with its Basic user. */
  readonly credentials: Credentials;
  /** The catalogue operation the request names; null when uncatalogued or unrouted. */
  readonly match: RouteMatch | null;
  /** The mode of that operation's route (legacy, api2, canary, shadow): `ArrivalRules.routeMode`. */
  readonly routeMode: RouteMode | undefined;
  /** On a rolled-out route, when its step in force began: `ArrivalRules.stepSince`. */
  readonly stepSince?: number | undefined;
  /** The client's scheme, address chain and host. */
  readonly client: ClientView;
  /** The client uses the gateway as its HTTP proxy (absolute-form target). */
  readonly absoluteForm: boolean;
  /** Credentials (an api_key or Authorization) sent over plain http. */
  readonly insecure: boolean;
  /** Why the target was refused before routing (400 or 414), when it was. */
  readonly refusedTarget: { readonly status: 400 | 414; readonly reason: string } | undefined;
}

/** What `arrive` decides with, made once per config. */
export interface ArrivalRules {
  /** The operations recognised (the catalogue's route table). */
  readonly routes: RouteTable;
  /** Peers whose `X-Forwarded-*` headers are believed. */
  readonly trusted: PeerMatcher;
  /** The one place the request path learns a route's mode (a rollout controller hooks here). */
  readonly routeMode: (operation: OperationId) => RouteMode;
  /** When a rolled-out route's step in force began (undefined without a rollout): the step a line's evidence is of. */
  readonly stepSince?: (operation: OperationId) => number | undefined;
  /** Traces are exported: each request's trace keeps a span log (src/observability/tracing/span-log.ts). */
  readonly traced?: boolean | undefined;
}

/** The arrival of the request the runtime handed over; each fact is worked out here, once. */
export function arrive(raw: RuntimeArrival, rules: ArrivalRules, startedPerf: number): Arrival {
  const headers = endToEndHeaders(raw.headers as Record<string, string>);
  const { target } = raw;
  const { pairs, credentials } = queryFactsOf(target.query, headers['authorization']);
  const match = target.ok ? rules.routes.match(raw.method, target.path) : null;
  const client = viewClient(raw.peer, headers, rules.trusted);
  return {
    requestId: requestIdFrom(headers[REQUEST_ID_HEADER]),
    trace: traceFrom(headers[TRACEPARENT_HEADER], headers[TRACESTATE_HEADER], rules.traced === true),
    startedAt: Date.now(),
    startedPerf,
    method: raw.method,
    headers,
    json: wantsJson(headers['accept'], headers['content-type']),
    routed: target.ok,
    path: target.ok ? target.path : '',
    query: target.query,
    pairs,
    credentials,
    match,
    routeMode: match ? rules.routeMode(match.operation.id) : undefined,
    stepSince: match ? rules.stepSince?.(match.operation.id) : undefined,
    client,
    absoluteForm: raw.absoluteForm,
    insecure: client.scheme === 'http' && credentials.carried,
    refusedTarget: target.ok ? undefined : { status: target.status, reason: target.reason },
  };
}

/** How many queries' facts are remembered now (at most 1,024 without Authorization, 1,024 with). */
export const rememberedQueries = (): number => withoutAuthorization.size() + withAuthorization.size();

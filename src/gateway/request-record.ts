/**
 * One record per request: what the gateway learned while answering it, handed to the `onRecord`
 * sink when the answer is ready (the usage log and the metrics, src/observability/). It never
 * holds a secret: no api_key, no password, no Authorization, no raw query (`params` holds only the
 * parameters the operation declares: src/request/logged-params.ts). Clients and users appear only
 * as keyed hashes.
 *
 * Written in one place, `recordOf`, from the request as it arrived (src/gateway/arrival.ts) and
 * what answered it (the outcome of the pipeline, or of a Node refusal): one object of one shape,
 * built when the answer is known, never filled in by the stages.
 */
import type { OperationId, PathFormKind } from '../catalogue/operations.js';
import { uncataloguedTemplate } from '../catalogue/route-table.js';
import type { RouteMode } from '../config/schema.js';
import { scrubTemplate } from '../request/identity.js';
import type { Identifier } from '../request/identity.js';
import type { CacheOutcome } from '../cache/types.js';
import type { Arrival } from './arrival.js';
import { jsonChosenBy } from '../legacy/answer-body.js';
import type { DeprecationTold } from '../config/deprecation.js';
import { clientProgramOf } from '../http/client-program.js';
import type { TraceVerdict } from '../config/tracing.js';
import { loggedParams } from '../request/logged-params.js';
import { randomUuid } from '../hot-path.js';

/**
 * Which upstream answered the request (the outcome's `side`, logged as `mode`): `legacy`
 * (pass-through) or `api2` (mapped). Absent when the gateway answered by itself (logged as
 * `gateway`).
 */
export type Mode = 'legacy' | 'api2';

export interface RequestRecord {
  /**
   * The record's own identity: a UUID made for it by `recordOf`, unique where the client's request
   * id may repeat (the usage line's `id`, the row key in ClickHouse). Absent only from records made
   * by hand.
   */
  readonly id?: string;
  /** From `X-Request-Id` when acceptable, else generated; echoed to the client when the usage log is on. */
  readonly requestId: string;
  /** The W3C trace id every upstream call of the request carried (src/request/trace-context.ts); absent on a request refused before the app. */
  readonly traceId?: string | undefined;
  /** Epoch milliseconds when the request reached the gateway. */
  readonly startedAt: number;
  /**
   * Epoch milliseconds when its answer was made (`recordOf`): the usage line's `time` and the live
   * counters' bucket both read this one instant, so a request answered at a bucket's edge is counted
   * on the same side of it by the report and by the rollout runner. Absent (a record made by hand):
   * when it is written or counted.
   */
  readonly answeredAt?: number;
  readonly method: string;
  /** Operation id, `uncatalogued`, or null when the target was refused before routing. */
  readonly operation: OperationId | 'uncatalogued' | null;
  /** For uncatalogued requests: a path template such as `/recipe/{n}`. */
  readonly pathTemplate?: string;
  readonly form?: PathFormKind;
  readonly versionPrefix?: string | null;
  readonly absoluteForm?: boolean;
  readonly scheme?: 'http' | 'https';
  /** Credentials (api_key or Authorization) sent over plain http. */
  readonly insecure: boolean;
  /** What made the answer JSON (src/legacy/answer-body.ts jsonChosenBy); undefined: XML. */
  readonly jsonBy?: 'accept' | 'content-type' | undefined;
  /** Which path answered it (see `Mode`). */
  readonly mode?: Mode;
  /** The route's configured mode (legacy, api2, canary, shadow); `mode` says which side answered. */
  readonly routeMode?: RouteMode;
  /** On a rolled-out route, the epoch ms its step in force began (the rollout state's `since`). */
  readonly stepSince?: number | undefined;
  /** The api2 answer failed and legacy answered instead. */
  readonly fallback?: boolean;
  /** Response cache outcome, when a cache is in the path. */
  readonly cache?: CacheOutcome;
  readonly status?: number;
  /** Time from arrival to the answer being ready, in ms (0.01 ms resolution). */
  readonly latencyMs?: number;
  readonly upstreamMs?: number;
  /** Request body size, as its Content-Length declares it (0 without one). */
  readonly bytesIn?: number;
  /** Response body size. */
  readonly bytesOut?: number;
  /** Keyed hash of the api_key (16 hex digits). */
  readonly client?: string;
  /** Label of that hash from `observability.clientLabels`. */
  readonly clientLabel?: string;
  /** The client program's family from its User-Agent (src/http/client-program.ts), with the usage log on. */
  readonly clientProgram?: string | undefined;
  /** Keyed hash of the HTTP Basic user name (16 hex digits). */
  readonly user?: string;
  /**
   * A catalogued request's declared parameters as its URL gave them, without api_key or a value
   * holding a secret of the request, at most 256 characters (src/request/logged-params.ts), with the usage log on;
   * empty when the URL gave none.
   */
  readonly params?: string | undefined;
  /** The deprecation signal the answer carried (src/pipeline/deprecation-signal.ts). */
  readonly deprecation?: DeprecationTold | undefined;
  /** Short reason code (the `X-Gateway-Error` value, or an internal reason). */
  readonly error?: string;
  /**
   * With traces exported, what became of this request's trace (src/observability/tracing/verdict.ts):
   * `recordOf` lists it undefined and the request's context sets the tracer's verdict on the record
   * itself before any sink reads it, so that a traced record has the shape of every other.
   */
  readonly traced?: TraceVerdict | undefined;
}

export type RecordSink = (record: RequestRecord) => void;

/** What answered a request, as the record says it. */
export interface RecordedOutcome {
  /** Which upstream answered; absent when the gateway answered by itself. */
  readonly side?: Mode | undefined;
  readonly upstreamMs?: number | undefined;
  readonly error?: string | undefined;
  readonly fallback?: true | undefined;
  readonly cache?: CacheOutcome | undefined;
}

/** The request's facts the record reads (a Node refusal has no more than these). */
export type RecordedArrival = Pick<Arrival, 'requestId' | 'startedAt' | 'method' | 'headers' | 'routed' | 'path' | 'pairs' | 'credentials' | 'match' | 'routeMode' | 'stepSince' | 'absoluteForm' | 'insecure'> & {
  readonly client: { readonly scheme: 'http' | 'https' };
  /** Absent on a request refused before the app (nothing was forwarded to follow). */
  readonly trace?: Arrival['trace'] | undefined;
};

/** The answer as sent: its status, its body size (with the usage log), the time to it. */
export interface RecordedAnswer {
  readonly status: number;
  /** Body bytes sent; counted only with the usage log on. */
  readonly bytesOut: number | undefined;
  readonly latencyMs: number;
  /** The deprecation signal it carried, when one is configured for its operation. */
  readonly deprecation?: DeprecationTold | undefined;
}

/**
 * The one place a record is written. With an `identifier` (the usage log is on) it also holds the
 * client and user hashes and the body sizes. Every field is listed, absent ones as undefined, so
 * every record has one shape for the sinks that read it.
 */
export function recordOf(arrival: RecordedArrival, outcome: RecordedOutcome, answered: RecordedAnswer, identifier: Identifier | undefined): RequestRecord {
  const { match, credentials } = arrival;
  const who = identifier?.client(credentials.apiKey);
  const contentLength = arrival.headers['content-length'];
  return {
    id: randomUuid(),
    requestId: arrival.requestId,
    traceId: arrival.trace?.traceId,
    startedAt: arrival.startedAt,
    answeredAt: Date.now(),
    method: arrival.method,
    operation: match ? match.operation.id : arrival.routed ? 'uncatalogued' : null,
    pathTemplate: match || !arrival.routed ? undefined : scrubTemplate(uncataloguedTemplate(arrival.path), credentials),
    form: match?.form.kind,
    versionPrefix: match?.versionPrefix,
    absoluteForm: arrival.absoluteForm,
    scheme: arrival.client.scheme,
    insecure: arrival.insecure,
    jsonBy: jsonChosenBy(arrival.headers['accept'], arrival.headers['content-type']),
    mode: outcome.side,
    routeMode: arrival.routeMode,
    stepSince: arrival.stepSince,
    fallback: outcome.fallback,
    cache: outcome.cache,
    status: answered.status,
    latencyMs: answered.latencyMs,
    upstreamMs: outcome.upstreamMs,
    bytesIn: identifier ? (contentLength === undefined ? 0 : Number(contentLength) || 0) : undefined,
    bytesOut: answered.bytesOut,
    client: who?.hash,
    clientLabel: who?.label,
    clientProgram: identifier ? clientProgramOf(arrival.headers['user-agent']) : undefined,
    user: identifier?.user(credentials.user),
    params: identifier && match ? loggedParams(arrival.pairs, credentials, match) : undefined,
    deprecation: answered.deprecation,
    error: outcome.error,
    traced: undefined,
  };
}

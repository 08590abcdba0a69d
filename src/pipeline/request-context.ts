/**
 * The gateway's one Hono handler. It reads the request once into its arrival (headers, target
 * normalised with hostile paths refused before anything else looks at them, operation, client
 * view), runs the guards over it (method, host, scheme), hands it to dispatch, and once the
 * outcome is known makes the one Response and writes the one record (src/gateway/request-
 * record.ts). One handler rather than a middleware chain: Hono calls a lone handler directly,
 * without composing a promise chain per request.
 *
 * With a usage log (`details`), it also echoes the request id, counts the body bytes and hashes
 * the client and user.
 */
import type { Context, Handler } from 'hono';
import type { OperationId } from '../catalogue/operations.js';
import type { RouteTable } from '../catalogue/route-table.js';
import type { RouteMode } from '../config/schema.js';
import type { Arrival } from '../gateway/arrival.js';
import type { RuntimeBindings } from '../gateway/env.js';
import { recordOf } from '../gateway/request-record.js';
import type { RecordSink } from '../gateway/request-record.js';
import { carriesBody, toResponse, withHeader } from '../http/answer.js';
import { carriesCredentials, viewClient } from '../http/client-view.js';
import { endToEndHeaders } from '../http/headers.js';
import { normaliseTarget, originFormOf } from '../http/target.js';
import type { PeerMatcher } from '../http/trusted-proxies.js';
import { wantsJson } from '../legacy/render.js';
import type { Identifier } from '../observability/identity.js';
import { roundMs } from '../observability/measure.js';
import { emitAtOnce } from '../observability/record-emitter.js';
import type { RecordEmitter } from '../observability/record-emitter.js';
import { REQUEST_ID_HEADER, requestIdFrom } from '../observability/request-id.js';
import { TRACEPARENT_HEADER, TRACESTATE_HEADER, traceFrom } from '../observability/trace-context.js';
import { runGuards } from './guard.js';
import type { Guard } from './guard.js';
import { refused } from './parts.js';
import type { Outcome } from './parts.js';

export interface RequestContextOptions {
  readonly maxUrlLength: number;
  /** The operations recognised (the catalogue's route table). */
  readonly routes: RouteTable;
  /** Peers whose `X-Forwarded-*` headers are believed. */
  readonly trusted: PeerMatcher;
  /** The configured mode of an operation's route, for the record. */
  readonly routeMode: (operation: OperationId) => RouteMode;
  readonly sink?: RecordSink | undefined;
  /**
   * The usage log's extras: echo `X-Request-Id`, count body bytes, hash client and user.
   * Undefined when only counters need the record (metrics without a log).
   */
  readonly details?: { readonly identifier: Identifier } | undefined;
  /** When the record goes to the sink (default: as soon as the answer is ready). */
  readonly emit?: RecordEmitter | undefined;
  /** The runtime's view of the peer and the target, and its fast ways to read them when it has them. */
  readonly runtime: Pick<RuntimeBindings, 'peer' | 'absoluteForm' | 'requestHeaders' | 'normalisedTarget'>;
  /** Checks run before dispatch, in order (method, host, scheme); the first that answers wins. */
  readonly guards?: ReadonlyArray<Guard | undefined> | undefined;
  /** Answers the request once the guards let it through. */
  readonly dispatch: (c: Context, arrival: Arrival) => Promise<Outcome> | Outcome;
}

export function requestContext(options: RequestContextOptions): Handler {
  const { maxUrlLength, routes, trusted, runtime, sink, details, dispatch } = options;
  const guards = (options.guards ?? []).filter((guard): guard is Guard => guard !== undefined);
  const emit = options.emit ?? emitAtOnce;
  const identifier = details?.identifier;

  // The answer is known at once when nothing had to wait (a refusal, a cache HIT), else when
  // dispatch's promise settles. The one Response and the one record are made here.
  const finish = (c: Context, arrival: Arrival, outcome: Outcome): Response => {
    if (!sink) return toResponse(outcome.answer);
    const answered = details ? withHeader(outcome.answer, REQUEST_ID_HEADER, arrival.requestId) : outcome.answer;
    const { status } = answered;
    const bytesOut = details ? (carriesBody(arrival.method, status) ? answered.bytes : 0) : undefined;
    const latencyMs = roundMs(performance.now() - arrival.startedPerf);
    const response = toResponse(answered);
    emit(c, recordOf(arrival, outcome, { status, bytesOut, latencyMs }, identifier), sink);
    return response;
  };

  return (c) => {
    const startedPerf = performance.now();
    const headers = endToEndHeaders(runtime.requestHeaders ? runtime.requestHeaders(c) : c.req.header());
    const checkedBefore = runtime.normalisedTarget?.(c);
    const originForm = checkedBefore ? '' : originFormOf(c.req.url);
    const target = checkedBefore ? ({ ok: true, path: checkedBefore.path, query: checkedBefore.query } as const) : normaliseTarget(originForm, maxUrlLength);
    // A refused target's query only hashes its client; it is never forwarded.
    const query = target.ok ? target.query : originForm.includes('?') ? originForm.slice(originForm.indexOf('?') + 1) : '';
    const method = c.req.method;
    const match = target.ok ? routes.match(method, target.path) : null;
    const client = viewClient(runtime.peer(c), headers, trusted);
    const arrival: Arrival = {
      requestId: requestIdFrom(headers[REQUEST_ID_HEADER]),
      trace: traceFrom(headers[TRACEPARENT_HEADER], headers[TRACESTATE_HEADER]),
      startedAt: Date.now(),
      startedPerf,
      method,
      headers,
      json: wantsJson(headers['accept'], headers['content-type']),
      routed: target.ok,
      path: target.ok ? target.path : '',
      query,
      match,
      routeMode: match ? options.routeMode(match.operation.id) : undefined,
      client,
      absoluteForm: runtime.absoluteForm(c),
      insecure: client.scheme === 'http' && carriesCredentials(query, headers),
    };
    if (!target.ok) return finish(c, arrival, refused(target.status, 'bad-target', `The request target is refused: ${target.reason}.`, arrival.json));
    let outcome: Outcome | Promise<Outcome>;
    try {
      outcome = runGuards(guards, arrival) ?? dispatch(c, arrival);
    } catch (error) {
      outcome = failed(error);
    }
    if (!(outcome instanceof Promise)) return finish(c, arrival, outcome);
    return outcome.then(
      (done) => finish(c, arrival, done),
      (error: unknown) => finish(c, arrival, failed(error)),
    );
  };
}

/** A failure of the gateway itself: a 500 in the legacy shape, recorded as `internal`. */
function failed(error: unknown): Outcome {
  console.error(JSON.stringify({ level: 'error', msg: 'unhandled gateway error', error: String(error) }));
  return refused(500, 'internal', 'The gateway failed to answer this request.', true);
}

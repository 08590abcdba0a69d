/**
 * The gateway's one Hono handler. It takes the request the runtime hands over and makes its
 * arrival once (src/gateway/arrival.ts: headers, operation, credentials, route mode, client
 * view; a hostile target is refused before anything else looks at it), runs the guards over it
 * (method, host, scheme), hands it to dispatch, and once the outcome is known makes the one
 * Response and writes the one record (src/gateway/request-
 * record.ts). One handler rather than a middleware chain: Hono calls a lone handler directly,
 * without composing a promise chain per request.
 *
 * With a usage log (`details`), it also echoes the request id, counts the body bytes and hashes
 * the client and user.
 */
import type { Context, Handler } from 'hono';
import { arrive } from '../gateway/arrival.js';
import type { Arrival, ArrivalRules } from '../gateway/arrival.js';
import type { RuntimeBindings } from '../gateway/env.js';
import { recordOf } from '../gateway/request-record.js';
import type { RecordSink, RequestRecord } from '../gateway/request-record.js';
import { carriesBody, toResponse, withHeader } from '../http/answer.js';
import type { Identifier } from '../request/identity.js';
import type { OperationId } from '../catalogue/operations.js';
import { roundMs } from '../observability/measure.js';
import { whenReady } from '../hot-path.js';
import type { SyncOrAsync } from '../hot-path.js';
import { REQUEST_ID_HEADER } from '../request/request-id.js';
import { runGuards } from './guard.js';
import type { Guard } from './guard.js';
import { withDeprecationSignal } from './deprecation-signal.js';
import type { DeprecationSignal } from './deprecation-signal.js';
import { refused } from './parts.js';
import type { Outcome } from './parts.js';
import type { Tracer } from '../observability/tracing/tracer.js';

export interface RequestContextOptions {
  readonly maxUrlLength: number;
  /** Routes, trusted proxies and the route mode: what the arrival is worked out with. */
  readonly rules: ArrivalRules;
  readonly sink?: RecordSink | undefined;
  /**
   * The usage log's extras: echo `X-Request-Id`, count body bytes, hash client and user.
   * Undefined when only counters need the record (metrics without a log).
   */
  readonly details?: { readonly identifier: Identifier } | undefined;
  /** Hands over the request, finished; `defer` keeps a trace's export alive where the runtime needs it (the edge). */
  readonly runtime: Pick<RuntimeBindings, 'arrival' | 'defer'>;
  /** Exports kept traces (src/observability/tracing/tracer.ts); absent with export off: nothing is done. */
  readonly tracer?: Tracer | undefined;
  /** Checks run before dispatch, in order (method, host, scheme); the first that answers wins. */
  readonly guards?: ReadonlyArray<Guard | undefined> | undefined;
  /** The deprecation signal of a catalogued operation (deprecation-signal.ts); absent when none is configured. */
  readonly deprecation?: ((operation: OperationId) => DeprecationSignal | undefined) | undefined;
  /** Answers the request once the guards let it through. */
  readonly dispatch: (c: Context, arrival: Arrival) => SyncOrAsync<Outcome>;
}

export function requestContext(options: RequestContextOptions): Handler {
  const { maxUrlLength, rules, runtime, sink, details, dispatch, deprecation, tracer } = options;
  const guards = (options.guards ?? []).filter((guard): guard is Guard => guard !== undefined);
  const identifier = details?.identifier;

  // The answer is known at once when nothing had to wait (a refusal, a cache HIT), else when
  // dispatch's promise settles. The one Response and the one record are made here.
  const finish = (c: Context, arrival: Arrival, outcome: Outcome): Response => {
    // Per-client headers go on here, after the page cache: the deprecation signal, the request id.
    const signal = deprecation && arrival.match && outcome.error !== 'client-gone' ? deprecation(arrival.match.operation.id) : undefined;
    const signalled = signal ? withDeprecationSignal(outcome.answer, signal) : outcome.answer;
    if (!sink) return toResponse(signalled);
    const answered = details ? withHeader(signalled, REQUEST_ID_HEADER, arrival.requestId) : signalled;
    const { status } = answered;
    const bytesOut = details ? (carriesBody(arrival.method, status) ? answered.bytes : 0) : undefined;
    const latencyMs = roundMs(performance.now() - arrival.startedPerf);
    const response = toResponse(answered);
    const record = recordOf(arrival, outcome, { status, bytesOut, latencyMs, deprecation: signal?.told }, identifier);
    const spans = arrival.trace.spans;
    // With export on only: the verdict goes on the record itself (the usage line's `traced`; a copy
    // with one member more would be a hidden class of its own); the spans are built later, off the path.
    if (tracer && spans) (record as { traced?: RequestRecord['traced'] }).traced = tracer.take(record, spans, tracer.deferred ? (work) => runtime.defer?.(c, work) : undefined);
    sink(record);
    return response;
  };

  return (c) => {
    const startedPerf = performance.now();
    const arrival = arrive(runtime.arrival(c, maxUrlLength), rules, startedPerf);
    const refusedTarget = arrival.refusedTarget;
    if (refusedTarget) return finish(c, arrival, refused(refusedTarget.status, 'bad-target', `The request target is refused: ${refusedTarget.reason}.`, arrival.json));
    let outcome: SyncOrAsync<Outcome>;
    try {
      outcome = runGuards(guards, arrival) ?? dispatch(c, arrival);
    } catch (error) {
      outcome = failed(error, arrival.json);
    }
    return whenReady(
      outcome,
      (done) => finish(c, arrival, done),
      (error: unknown) => finish(c, arrival, failed(error, arrival.json)),
    );
  };
}

/** A failure of the gateway itself: a 500 in the legacy shape (JSON or XML, as the client reads), recorded as `internal`. */
function failed(error: unknown, json: boolean): Outcome {
  console.error(JSON.stringify({ level: 'error', msg: 'unhandled gateway error', error: String(error) }));
  return refused(500, 'internal', 'The gateway failed to answer this request.', json);
}

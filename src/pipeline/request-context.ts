/**
 * The gateway's one Hono handler: reads the headers once, normalises the request target (refusing
 * hostile paths before anything else looks at them), starts the request record, runs the guards
 * (host, scheme), hands the request to dispatch, and gives the finished record to the sink once
 * the answer is known. One handler rather than a middleware chain: Hono calls a lone handler
 * directly, without composing a promise chain per request.
 *
 * With a usage log (`details`), it also echoes the request id, measures the bodies and fills the
 * keyed client and user hashes. When a guard answered before dispatch (421, 308, 403), the
 * operation is still resolved here so the log can say which operation was refused.
 */
import type { Context, Handler } from 'hono';
import type { RouteTable } from '../catalogue/route-table.js';
import { toResponse, withHeader } from '../http/answer.js';
import type { Answer } from '../http/answer.js';
import { gatewayError } from '../http/gateway-error.js';
import { endToEndHeaders } from '../http/headers.js';
import { normaliseTarget, originFormOf } from '../http/target.js';
import { wantsJson } from '../legacy/render.js';
import type { GatewayEnv, RuntimeBindings } from '../gateway/env.js';
import { noteOperation } from '../gateway/request-record.js';
import type { RecordSink, RequestRecord } from '../gateway/request-record.js';
import type { Identifier } from '../observability/identity.js';
import { REQUEST_ID_HEADER, requestIdFrom } from '../observability/request-id.js';
import { roundMs } from '../observability/measure.js';
import { emitAtOnce } from '../observability/record-emitter.js';
import { runGuards } from './guard.js';
import type { Guard } from './guard.js';
import type { RecordEmitter } from '../observability/record-emitter.js';

export interface RequestContextOptions {
  readonly maxUrlLength: number;
  /** The operations recognised (the catalogue's route table). */
  readonly routes: RouteTable;
  readonly sink?: RecordSink | undefined;
  /**
   * The usage log's extras: echo `X-Request-Id`, count body bytes, hash client and user.
   * Undefined when only counters need the record (metrics without a log).
   */
  readonly details?: { readonly identifier: Identifier } | undefined;
  /** When the record goes to the sink (default: as soon as the answer is ready). */
  readonly emit?: RecordEmitter | undefined;
  /** The runtime's fast ways to read the request headers and target, when it has them. */
  readonly runtime?: Pick<RuntimeBindings, 'requestHeaders' | 'normalisedTarget'> | undefined;
  /** Checks run before dispatch, in order (host, scheme); the first that answers wins. */
  readonly guards?: ReadonlyArray<Guard | undefined> | undefined;
  /** Answers the request once the guards let it through. */
  readonly dispatch: (c: Context<GatewayEnv>) => Promise<Answer> | Answer;
}

export function requestContext(options: RequestContextOptions): Handler<GatewayEnv> {
  const { maxUrlLength, routes, sink, details, dispatch } = options;
  const guards = (options.guards ?? []).filter((guard): guard is Guard => guard !== undefined);
  const emit = options.emit ?? emitAtOnce;
  const readHeaders = options.runtime?.requestHeaders;
  const preNormalised = options.runtime?.normalisedTarget;
  return (c) => {
    const started = performance.now();
    const headers = endToEndHeaders(readHeaders ? readHeaders(c) : c.req.header());
    const record: RequestRecord = {
      requestId: requestIdFrom(headers[REQUEST_ID_HEADER]),
      startedAt: Date.now(),
      method: c.req.method,
      operation: null,
      insecure: false,
    };
    c.set('headers', headers);
    c.set('record', record);

    const checkedBefore = preNormalised?.(c);
    const originForm = checkedBefore ? '' : originFormOf(c.req.url);
    const target = checkedBefore ? ({ ok: true, path: checkedBefore.path, query: checkedBefore.query } as const) : normaliseTarget(originForm, maxUrlLength);
    // The record is finished once the answer is known: at once when nothing had to wait (a
    // refusal, a cache HIT), else when dispatch's promise settles. The one Response is made here.
    const finish = (answered: Answer, query: string): Response => {
      if (sink) {
        record.status = answered.status;
        if (details) answered = addDetails(answered, record, headers, query, details.identifier);
        record.latencyMs = roundMs(performance.now() - started);
      }
      const response = toResponse(answered);
      if (sink) {
        c.res = response;
        emit(c, record, sink);
      }
      return response;
    };

    if (!target.ok) {
      record.error = 'bad-target';
      const refusal = gatewayError(target.status, 'bad-target', `The request target is refused: ${target.reason}.`, wantsJson(headers['accept'], headers['content-type']));
      // The query only hashes the client of a refused target; it is never forwarded.
      return finish(refusal, originForm.includes('?') ? originForm.slice(originForm.indexOf('?') + 1) : '');
    }
    c.set('target', { path: target.path, query: target.query });
    const match = routes.match(record.method, target.path);
    c.set('match', match);
    noteOperation(record, match, target.path);
    const answered = runGuards(guards, c) ?? answerSafely(c, record, dispatch);
    return answered instanceof Promise ? answered.then((done) => finish(done, target.query)) : finish(answered, target.query);
  };
}

/** Dispatch's answer; a failure of the gateway itself is a 500 in the legacy shape, and is recorded. */
function answerSafely(c: Context<GatewayEnv>, record: RequestRecord, dispatch: RequestContextOptions['dispatch']): Answer | Promise<Answer> {
  const failed = (error: unknown): Answer => {
    record.error = 'internal';
    console.error(JSON.stringify({ level: 'error', msg: 'unhandled gateway error', error: String(error) }));
    return gatewayError(500, 'internal', 'The gateway failed to answer this request.', true);
  };
  try {
    const answered = dispatch(c);
    return answered instanceof Promise ? answered.catch(failed) : answered;
  } catch (error) {
    return failed(error);
  }
}

const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** Fills the usage log's extras (client and user hashes, body sizes); echoes the request id. */
function addDetails(answered: Answer, record: RequestRecord, headers: Record<string, string>, query: string, identifier: Identifier): Answer {
  identifier.identify(record, query, headers['authorization']);
  if (record.bytesIn === undefined) {
    const length = headers['content-length'];
    record.bytesIn = length === undefined ? 0 : Number(length) || 0;
  }
  record.bytesOut ??= record.method === 'HEAD' || NO_BODY.has(answered.status) ? 0 : answered.bytes;
  return withHeader(answered, REQUEST_ID_HEADER, record.requestId);
}

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
import { RouteTable, uncataloguedTemplate } from '../catalogue/route-table.js';
import { withHeader } from '../http/answer.js';
import { gatewayError } from '../http/gateway-error.js';
import { endToEndHeaders } from '../http/headers.js';
import { normaliseTarget, originFormOf } from '../http/target.js';
import { wantsJson } from '../legacy/render.js';
import type { GatewayEnv, RuntimeBindings } from '../gateway/env.js';
import type { RecordSink, RequestRecord } from '../gateway/request-record.js';
import type { Identifier } from '../observability/identity.js';
import { REQUEST_ID_HEADER, requestIdFrom } from '../observability/request-id.js';
import { responseBytes, roundMs } from '../observability/measure.js';
import { emitAtOnce } from '../observability/record-emitter.js';
import { runGuards } from './guard.js';
import type { Guard } from './guard.js';
import type { RecordEmitter } from '../observability/record-emitter.js';

export interface RequestContextOptions {
  readonly maxUrlLength: number;
  readonly sink?: RecordSink | undefined;
  /**
   * The usage log's extras: echo `X-Request-Id`, count body bytes, hash client and user.
   * Undefined when only counters need the record (metrics without a log).
   */
  readonly details?: { readonly identifier: Identifier } | undefined;
  /** When the record goes to the sink (default: as soon as the answer is ready). */
  readonly emit?: RecordEmitter | undefined;
  /** The runtime's fast ways to read request headers and set an answer header, when it has them. */
  readonly runtime?: Pick<RuntimeBindings, 'requestHeaders' | 'setResponseHeader' | 'normalisedTarget'> | undefined;
  /** Checks run before dispatch, in order (host, scheme); the first that answers wins. */
  readonly guards?: ReadonlyArray<Guard | undefined> | undefined;
  /** Answers the request once the guards let it through. */
  readonly dispatch: (c: Context<GatewayEnv>) => Promise<Response> | Response;
}

export function requestContext(options: RequestContextOptions): Handler<GatewayEnv> {
  const { maxUrlLength, sink, details, dispatch } = options;
  const guards = (options.guards ?? []).filter((guard): guard is Guard => guard !== undefined);
  const emit = options.emit ?? emitAtOnce;
  const countLater = options.emit !== undefined;
  const routes = new RouteTable();
  const readHeaders = options.runtime?.requestHeaders;
  const setHeader = options.runtime?.setResponseHeader;
  const preNormalised = options.runtime?.normalisedTarget;
  return async (c) => {
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
    const target = checkedBefore ? ({ ok: true, ...checkedBefore } as const) : normaliseTarget(originForm, maxUrlLength);
    let query = '';
    let response: Response;
    if (!target.ok) {
      // Only to hash the client of a refused target; never forwarded.
      query = originForm.includes('?') ? originForm.slice(originForm.indexOf('?') + 1) : '';
      record.error = 'bad-target';
      response = gatewayError(target.status, 'bad-target', `The request target is refused: ${target.reason}.`, wantsJson(headers['accept'], headers['content-type']));
    } else {
      query = target.query;
      c.set('target', { path: target.path, query: target.query });
      response = runGuards(guards, c) ?? (await answer(c, record, dispatch));
      if (record.operation === null && sink) resolveOperation(routes, record, target.path);
    }
    if (!sink) return response;
    record.status = response.status;
    if (details) response = await addDetails(c, response, record, headers, query, details.identifier, countLater, setHeader);
    record.latencyMs = roundMs(performance.now() - started);
    c.res = response;
    emit(c, record, sink);
    return response;
  };
}

/** Dispatch's answer; a failure of the gateway itself is a 500 in the legacy shape, and is recorded. */
async function answer(c: Context<GatewayEnv>, record: RequestRecord, dispatch: RequestContextOptions['dispatch']): Promise<Response> {
  try {
    return await dispatch(c);
  } catch (error) {
    record.error = 'internal';
    console.error(JSON.stringify({ level: 'error', msg: 'unhandled gateway error', error: String(error) }));
    return gatewayError(500, 'internal', 'The gateway failed to answer this request.', true);
  }
}

function resolveOperation(routes: RouteTable, record: RequestRecord, path: string): void {
  const match = routes.match(record.method, path);
  if (match) {
    record.operation = match.operation.id;
    record.form = match.form.kind;
    record.versionPrefix = match.versionPrefix;
  } else {
    record.operation = 'uncatalogued';
    record.pathTemplate = uncataloguedTemplate(path);
  }
}

/** Fills the usage log's extras; returns the answer to send (a copy when its headers were immutable). */
async function addDetails(
  c: Context<GatewayEnv>,
  response: Response,
  record: RequestRecord,
  headers: Record<string, string>,
  query: string,
  identifier: Identifier,
  countLater: boolean,
  setHeader: RuntimeBindings['setResponseHeader'],
): Promise<Response> {
  identifier.identify(record, query, headers['authorization']);
  if (record.bytesIn === undefined) {
    const length = headers['content-length'];
    record.bytesIn = length === undefined ? 0 : Number(length) || 0;
  }
  const rebuilt = withHeader(response, REQUEST_ID_HEADER, record.requestId);
  if (rebuilt) {
    response = rebuilt;
  } else if (setHeader) {
    setHeader(c, REQUEST_ID_HEADER, record.requestId);
  } else {
    try {
      response.headers.set(REQUEST_ID_HEADER, record.requestId);
    } catch {
      // Immutable headers (a fetched Response): answer with a copy.
      response = new Response(response.body, response);
      response.headers.set(REQUEST_ID_HEADER, record.requestId);
    }
  }
  if (record.bytesOut === undefined) record.bytesOut = await responseBytes(response, record.method, countLater);
  return response;
}

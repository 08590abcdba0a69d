/**
 * The spans of one request, built from its record and span log after the answer (never on the
 * request's path): one server span named by the operation, continuing the client's W3C trace (or
 * the one the gateway started), and one client span per upstream call whose span id is the one its
 * `traceparent` carried. Attributes: OpenTelemetry's HTTP semantic conventions, and the gateway's
 * own under `recipe_gateway.` (docs/tracing.md lists each). Never a secret: the record holds none,
 * and a call's URL has no query and no user info. Pure but for the server span's new id.
 */
import type { Attributes, HrTime, SpanContext } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { RequestRecord } from '../../gateway/request-record.js';
import { modeOf, UNROUTED } from '../log-schema.js';
import { newSpanId } from '../../request/trace-context.js';
import type { ShadowRecord } from '../../traffic/shadow.js';
import type { CallSpan, SpanLog } from './span-log.js';
import type { TraceVerdict } from '../../config/tracing.js';

/** @opentelemetry/api's SpanKind and SpanStatusCode values (its enums, as numbers: no runtime import). */
const SERVER = 1;
const CLIENT = 2;
const UNSET = 0;
const ERROR = 2;
const SAMPLED = 1;

/** Where the gateway's own attributes live. */
export const NAMESPACE = 'recipe_gateway';

/** A kept request, as the exporter queue holds it. */
export interface KeptTrace {
  readonly record: Readonly<RequestRecord>;
  readonly log: SpanLog;
  readonly verdict: TraceVerdict;
}

export interface SpanSource {
  readonly resource: Resource;
  readonly scope: { readonly name: string; readonly version: string };
  /** Each upstream's base URL by its name (`legacy`, `api2`): a client span's URL is it and the call's path. */
  readonly baseUrls: Readonly<Record<string, string | undefined>>;
}

function hrTime(epochMs: number): HrTime {
  const seconds = Math.floor(epochMs / 1000);
  return [seconds, Math.round((epochMs - seconds * 1000) * 1e6)];
}

function span(source: SpanSource, name: string, kind: number, context: SpanContext, parent: SpanContext | undefined, start: number, end: number, attributes: Attributes, failed: boolean): ReadableSpan {
  const startTime = hrTime(start);
  const endTime = hrTime(Math.max(start, end));
  return {
    name,
    kind,
    spanContext: () => context,
    ...(parent ? { parentSpanContext: parent } : {}),
    startTime,
    endTime,
    duration: hrTime(Math.max(0, end - start)),
    status: { code: failed ? ERROR : UNSET },
    attributes,
    links: [],
    events: [],
    ended: true,
    resource: source.resource,
    instrumentationScope: source.scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** Attributes without the undefined ones. */
function defined(attributes: Record<string, Attributes[string]>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

/** The server span's attributes: HTTP's conventions, then the gateway's own. */
export function serverAttributes(record: Readonly<RequestRecord>, verdict: TraceVerdict, shadow: ShadowRecord | undefined): Attributes {
  const status = record.status ?? 0;
  const g = NAMESPACE;
  return defined({
    'http.request.method': record.method,
    'http.response.status_code': status,
    'http.route': record.pathTemplate,
    'url.scheme': record.scheme,
    'error.type': status >= 500 ? String(status) : undefined,
    [`${g}.operation`]: record.operation ?? UNROUTED,
    [`${g}.request_id`]: record.requestId,
    [`${g}.answered_by`]: modeOf(record),
    [`${g}.route_mode`]: record.routeMode,
    [`${g}.rollout.step_since`]: record.stepSince,
    // On a canary step, the side the client's cohort was given (it answered unless it fell back).
    [`${g}.rollout.cohort`]: record.routeMode === 'canary' ? (record.fallback ? 'api2' : record.mode) : undefined,
    [`${g}.cache`]: record.cache,
    [`${g}.fallback`]: record.fallback === true ? true : undefined,
    [`${g}.shadow.outcome`]: shadow?.outcome,
    [`${g}.shadow.reason`]: shadow?.reason,
    [`${g}.shadow.diffs`]: shadow?.diffs && shadow.diffs.length > 0 ? shadow.diffs.map((d) => d.path) : undefined,
    [`${g}.client`]: record.client,
    [`${g}.client_label`]: record.clientLabel,
    [`${g}.client_program`]: record.clientProgram,
    [`${g}.deprecation`]: record.deprecation,
    [`${g}.insecure`]: record.insecure ? true : undefined,
    [`${g}.error`]: record.error,
    [`${g}.trace.kept`]: verdict,
  });
}

/** A call's URL: its upstream's base URL and its path, without the query (a legacy one carries the api_key) and user info (a base URL may carry some). */
function where(baseUrl: string | undefined, target: string | undefined): { full: string | undefined; address: string | undefined; port: number | undefined } {
  if (!baseUrl || target === undefined) return { full: undefined, address: undefined, port: undefined };
  const query = target.indexOf('?');
  try {
    const parsed = new URL(baseUrl.replace(/\/+$/, '') + (query === -1 ? target : target.slice(0, query)));
    parsed.username = '';
    parsed.password = '';
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
    return { full: parsed.href, address: parsed.hostname, port };
  } catch {
    return { full: undefined, address: undefined, port: undefined };
  }
}

/** A client span's attributes; `baseUrl`: its upstream's. */
export function clientAttributes(call: CallSpan, baseUrl: string | undefined): Attributes {
  const { full, address, port } = where(baseUrl, call.target);
  const failed = call.failure ?? (call.status !== undefined && call.status >= 400 ? String(call.status) : undefined);
  return defined({
    'http.request.method': call.method,
    'http.response.status_code': call.status,
    'server.address': address,
    'server.port': port,
    'url.full': full,
    'error.type': failed,
    [`${NAMESPACE}.upstream`]: call.upstream,
    // A shadow comparison's or a page refresh's call, not made for the client's answer.
    [`${NAMESPACE}.call.background`]: call.background ? true : undefined,
    [`${NAMESPACE}.call.unfinished`]: call.endedAt === undefined ? true : undefined,
  });
}

/** The server span and one client span per upstream call of a kept request. */
export function spansOf(kept: KeptTrace, source: SpanSource, now: number): ReadableSpan[] {
  const { record, log, verdict } = kept;
  const traceId = record.traceId!;
  const shadow = log.shadow?.record;
  const server: SpanContext = { traceId, spanId: newSpanId(), traceFlags: SAMPLED };
  const parent: SpanContext | undefined = log.parentId ? { traceId, spanId: log.parentId, traceFlags: SAMPLED, isRemote: true } : undefined;
  const answeredAt = log.startedAt + (record.latencyMs ?? 0);
  const status = record.status ?? 0;
  const spans = [span(source, record.operation ?? UNROUTED, SERVER, server, parent, log.startedAt, answeredAt, serverAttributes(record, verdict, shadow), status >= 500)];
  for (const call of log.calls) {
    const name = `${call.method ?? 'HTTP'} ${call.upstream ?? 'upstream'}`;
    const attributes = clientAttributes(call, call.upstream === undefined ? undefined : source.baseUrls[call.upstream]);
    // A client span is an error when its exchange failed or was answered 4xx/5xx (HTTP's conventions).
    spans.push(span(source, name, CLIENT, { traceId, spanId: call.spanId, traceFlags: SAMPLED }, server, call.startedAt, call.endedAt ?? now, attributes, attributes['error.type'] !== undefined));
  }
  return spans;
}

/**
 * Following a request across backends: the W3C Trace Context (https://www.w3.org/TR/trace-context/)
 * and the request id, read once at arrival and sent on every upstream call, so that a gateway
 * usage line joins the legacy backend's and api2's logs (each multi-call mapping's calls included).
 *
 * - `traceparent` is kept when valid (version 00, or a later version read as 00), else a new trace
 *   is made. Every upstream call gets a child span id of its own under the same trace id; the
 *   sampled flag is passed on as it came.
 * - `tracestate` is passed on with a valid `traceparent` only, when it is printable ASCII of at most
 *   512 characters (the limit the specification lets a participant cut at), else dropped.
 *
 * DECISION: a trace the gateway starts is sampled (flag 01): the gateway records every request in
 * its usage log, so the backends may as well record theirs.
 *
 * Nothing here comes from a credential: trace and span ids are parsed hex or random bytes.
 *
 * With traces exported (`observability.tracing`), the trace holds a span log (src/observability/
 * tracing/span-log.ts) where each call's span id is noted; without, none is made.
 */
import { openCall, openSpanLog } from '../observability/tracing/span-log.js';
import type { SpanLog } from '../observability/tracing/span-log.js';
import { randomHexDigits } from '../hot-path.js';

export const TRACEPARENT_HEADER = 'traceparent';
export const TRACESTATE_HEADER = 'tracestate';

export interface TraceContext {
  /** 32 lower-case hex digits, never all zero. */
  readonly traceId: string;
  /** The trace flags to pass on: `01` (sampled) or `00`. */
  readonly flags: '00' | '01';
  /** The client's `tracestate`, when passed on. */
  readonly state: string | undefined;
  /** The request's span log, only when traces are exported. */
  readonly spans?: SpanLog | undefined;
}

/** version-traceid-parentid-flags; a later version may append fields after a dash. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/** The trace of a request: the client's when its `traceparent` is valid, else a new sampled one. */
export function traceFrom(traceparent: string | undefined, tracestate: string | undefined, traced = false): TraceContext {
  const parsed = traceparent === undefined ? null : parseTraceparent(traceparent.trim());
  if (!parsed) return traced ? { traceId: randomHex(16, ZERO_TRACE), flags: '01', state: undefined, spans: openSpanLog(undefined, false) } : { traceId: randomHex(16, ZERO_TRACE), flags: '01', state: undefined };
  const state = tracestate !== undefined && TRACESTATE.test(tracestate.trim()) ? tracestate.trim() : undefined;
  if (traced) return { traceId: parsed.traceId, flags: parsed.flags, state, spans: openSpanLog(parsed.parentId, parsed.flags === '01') };
  return { traceId: parsed.traceId, flags: parsed.flags, state };
}

function parseTraceparent(value: string): { traceId: string; parentId: string; flags: '00' | '01' } | null {
  const match = TRACEPARENT.exec(value);
  if (!match) return null;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  // Version ff is invalid; version 00 has exactly four fields; a later version may have more.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (traceId === ZERO_TRACE || parentId === ZERO_SPAN) return null;
  return { traceId, parentId, flags: (parseInt(flags, 16) & 1) === 1 ? '01' : '00' };
}

/** The `traceparent` of one upstream call: the request's trace id, a new span id, its flags. */
export function childTraceparent(trace: TraceContext): string {
  return traceparentWith(trace, newSpanId());
}

function traceparentWith(trace: TraceContext, spanId: string): string {
  return `00-${trace.traceId}-${spanId}-${trace.flags}`;
}

/** A new span id: 16 hex digits, never all zero. */
export function newSpanId(): string {
  return randomHex(8, ZERO_SPAN);
}

/** `bytes` random bytes as hex digits, drawn again in the (2^-64 or less) case they are all zero. */
function randomHex(bytes: number, zero: string): string {
  const hex = randomHexDigits(bytes);
  return hex === zero ? randomHex(bytes, zero) : hex;
}

/** The headers `markCall` sets: never copied from the client as they came. */
export const TRAIL_HEADERS: readonly string[] = ['x-request-id', TRACEPARENT_HEADER, TRACESTATE_HEADER];

/** What every upstream call of one request carries so that it can be followed (src/pipeline/*-side.ts). */
export interface RequestTrail {
  /** The request id of the usage line (src/request/request-id.ts), sent as `X-Request-Id`. */
  readonly requestId: string;
  readonly trace: TraceContext;
  /** The client's `User-Agent` as sent, if any. */
  readonly userAgent: string | undefined;
}

/**
 * Sets the trail's headers on one upstream call's headers (in place): `X-Request-Id`, a
 * `traceparent` with a span id of its own, and `tracestate` when passed on. Headers copied from the
 * client must leave out the client's own copies (`TRAIL_HEADERS`). `User-Agent` is each side's choice.
 */
export function markCall(headers: Record<string, string>, trail: RequestTrail): Record<string, string> {
  headers['x-request-id'] = trail.requestId;
  const spanId = newSpanId();
  headers[TRACEPARENT_HEADER] = traceparentWith(trail.trace, spanId);
  if (trail.trace.spans) openCall(trail.trace.spans, spanId);
  if (trail.trace.state !== undefined) headers[TRACESTATE_HEADER] = trail.trace.state;
  return headers;
}

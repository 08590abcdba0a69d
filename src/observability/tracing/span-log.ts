/**
 * What a request's trace learns while it is answered, kept only when traces are exported
 * (`observability.tracing.enabled`): with export off no log is made and nothing here runs.
 *
 * The log is opened at arrival (src/request/trace-context.ts `traceFrom`), each upstream call's
 * span id is noted where its `traceparent` is made (`markCall`), its timing and result by the traced
 * upstream client (traced-upstreams.ts), and a shadow comparison's end by the shadow stage. The
 * spans are built from it and the request's record after the answer (spans-of-record.ts).
 */
import type { ShadowRecord } from '../../traffic/shadow.js';

/** One upstream call of the request: its span id is the one its `traceparent` carried. */
export interface CallSpan {
  readonly spanId: string;
  /** Epoch ms (fractional) when the call was sent, and when its answer (or failure) came. */
  startedAt: number;
  endedAt: number | undefined;
  upstream: string | undefined;
  method: string | undefined;
  /** The upstream's URL of the call without its query (a legacy query carries the api_key). */
  url: string | undefined;
  status: number | undefined;
  /** Why the exchange failed (UpstreamFailure: timeout, connect, unavailable, ...). */
  failure: string | undefined;
  /** Made for a shadow comparison or a page refresh, not for the client's answer. */
  readonly background: boolean;
}

/** The shadow comparison of the request, when one was offered. */
export interface ShadowWait {
  settled: boolean;
  /** The comparison's record (its outcome, reason, paths), once settled; undefined: none was made. */
  record: ShadowRecord | undefined;
  /** Called once when it settles (the tracer waiting for it). */
  then: (() => void) | undefined;
}

export interface SpanLog {
  /** The client's span id (its traceparent's parent-id): the server span's parent; undefined: the gateway started the trace. */
  readonly parentId: string | undefined;
  /** The client's sampled flag, when the trace is the client's. */
  readonly clientSampled: boolean;
  /** Epoch ms (fractional) at arrival. */
  readonly startedAt: number;
  readonly calls: CallSpan[];
  shadow: ShadowWait | undefined;
  /** Set once the calls made are background work (a shadow comparison, a page refresh): the client's answer made its own before. */
  background: boolean;
}

/** Epoch milliseconds with sub-millisecond resolution. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

export function openSpanLog(parentId: string | undefined, clientSampled: boolean): SpanLog {
  return { parentId, clientSampled, startedAt: nowMs(), calls: [], shadow: undefined, background: false };
}

/** The call a headers object was marked for, found again by the traced upstream client. */
const CALL_OF = new WeakMap<object, CallSpan>();

/** Notes an upstream call whose headers carry `spanId` in their traceparent. */
export function openCall(log: SpanLog, headers: object, spanId: string): void {
  const call: CallSpan = { spanId, startedAt: nowMs(), endedAt: undefined, upstream: undefined, method: undefined, url: undefined, status: undefined, failure: undefined, background: log.background };
  log.calls.push(call);
  CALL_OF.set(headers, call);
}

export function callOf(headers: object): CallSpan | undefined {
  return CALL_OF.get(headers);
}

/** A shadow comparison was offered: the trace waits for it. Returns what settles it (once). */
export function awaitShadow(log: SpanLog): (record: ShadowRecord | undefined) => void {
  const wait: ShadowWait = { settled: false, record: undefined, then: undefined };
  log.shadow = wait;
  log.background = true;
  return (record) => {
    if (wait.settled) return;
    wait.settled = true;
    wait.record = record;
    const then = wait.then;
    wait.then = undefined;
    then?.();
  };
}

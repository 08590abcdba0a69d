/**
 * What a request's trace learns while it is answered, kept only when traces are exported
 * (`observability.tracing.enabled`): with export off no log is made and nothing here runs.
 *
 * The log is opened at arrival (src/request/trace-context.ts `traceFrom`), each upstream call's
 * span id and start are noted where its `traceparent` is made (`markCall`), its end and result by
 * the code that already awaits the call (`endCall`: the legacy side, the api2 port), and a shadow
 * comparison's end by the shadow stage. Nothing span-shaped is made here: no wrapper around the
 * upstream clients, no promise, no closure per call; the spans are built from the log and the
 * request's record after the answer, and only for a kept trace (spans-of-record.ts).
 */
import type { ShadowRecord } from '../../traffic/shadow.js';

/** One upstream call of the request: its span id is the one its `traceparent` carried. */
export interface CallSpan {
  readonly spanId: string;
  /** Epoch ms (fractional) when the call was sent, and when its answer (or failure) came. */
  readonly startedAt: number;
  endedAt: number | undefined;
  upstream: string | undefined;
  method: string | undefined;
  /**
   * The call's target as sent (path, and query on a legacy call): the span's URL is the upstream's
   * base URL and this without its query (a legacy query carries the api_key), made only for a kept trace.
   */
  target: string | undefined;
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

const ORIGIN = performance.timeOrigin;

/** Epoch milliseconds with sub-millisecond resolution. */
export function nowMs(): number {
  return ORIGIN + performance.now();
}

export function openSpanLog(parentId: string | undefined, clientSampled: boolean): SpanLog {
  return { parentId, clientSampled, startedAt: nowMs(), calls: [], shadow: undefined, background: false };
}

/** Notes an upstream call whose `traceparent` carries `spanId`, sent now. */
export function openCall(log: SpanLog, spanId: string): void {
  log.calls.push({ spanId, startedAt: nowMs(), endedAt: undefined, upstream: undefined, method: undefined, target: undefined, status: undefined, failure: undefined, background: log.background });
}

/**
 * The call `markCall` opened last on this log: read right after `markCall`, in the same
 * synchronous stretch, it is that call's (nothing else can open one in between). Undefined
 * with export off (no log).
 */
export function openedCall(log: SpanLog | undefined): CallSpan | undefined {
  return log === undefined ? undefined : log.calls[log.calls.length - 1];
}

/** The call's answer came (`status`) or it failed (`failure`: an UpstreamFailure, or `error`). */
export function endCall(call: CallSpan, upstream: string, method: string, target: string, status: number | undefined, failure: string | undefined): void {
  call.endedAt = nowMs();
  call.upstream = upstream;
  call.method = method;
  call.target = target;
  call.status = status;
  call.failure = failure;
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

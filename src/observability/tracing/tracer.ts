/**
 * The export of kept traces: decides each request's trace at its answer (verdict.ts), holds the
 * kept ones in a bounded queue, and sends them in batches off the request's path, one export at
 * a time, through the runtime's sender (OTLP/HTTP with OpenTelemetry's exporter on Node, its
 * serializer and fetch on the edge). Nothing here waits for, or can fail, a client's answer:
 * a full queue drops the trace (counted), a slow or absent receiver costs at most the export's
 * deadline, off the path. Drained by `flush` (Node's drain, the edge's deferred work).
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { TracingConfig } from '../../config/tracing.js';
import type { RequestRecord } from '../../gateway/request-record.js';
import type { SpanLog } from './span-log.js';
import { nowMs } from './span-log.js';
import { spansOf } from './spans-of-record.js';
import type { KeptTrace, SpanSource } from './spans-of-record.js';
import { shadowOutcomeKept, verdictAtAnswer, verdictRules } from './verdict.js';
import type { VerdictRules } from './verdict.js';
import type { TraceVerdict } from '../../config/tracing.js';

/** Sends one batch; rejects when the receiver did not take it. */
export type SpanSender = (spans: ReadableSpan[]) => Promise<void>;

export interface TracerCounts {
  /** Spans the receiver took. */
  readonly exported: number;
  /** Spans dropped: the queue was full when their trace was kept. */
  readonly dropped: number;
  /** Spans sent that the receiver did not take (down, slow past the deadline, refused). */
  readonly failed: number;
  /** Traces held now (queued, or waiting for their shadow comparison). */
  readonly held: number;
}

export interface Tracer {
  /**
   * At the answer: the trace's verdict (the usage line's `traced`), the trace queued when kept.
   * `keepAlive` (the edge's waitUntil) is handed the export of a kept trace.
   */
  take(record: Readonly<RequestRecord>, log: SpanLog, keepAlive?: (work: Promise<unknown>) => void): TraceVerdict | undefined;
  /** Hands the runtime's deferred work the export (the edge): true; Node's timers send it: false. */
  readonly deferred: boolean;
  counts(): TracerCounts;
  /** Sends every queued trace (drain); traces still waiting for a comparison are sent when it ends. */
  flush(): Promise<void>;
}

export interface TracerOptions {
  readonly config: TracingConfig;
  readonly send: SpanSender;
  readonly source: SpanSource;
  readonly deferred?: boolean;
}

export function createTracer(options: TracerOptions): Tracer {
  const { config, send, source } = options;
  const rules: VerdictRules = verdictRules(config);
  const queue: KeptTrace[] = [];
  let held = 0;
  let exported = 0;
  let dropped = 0;
  let failed = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sending: Promise<void> | undefined;
  let scheduled: Promise<void> | undefined;
  let settleScheduled: (() => void) | undefined;

  const deadline = (work: Promise<void>): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const cut = setTimeout(() => reject(new Error('export deadline')), config.timeoutMs + 100);
      work.then(
        () => (clearTimeout(cut), resolve()),
        (error: unknown) => (clearTimeout(cut), reject(error)),
      );
    });

  /** One batch after another until the queue is empty; the only sender at a time. */
  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      const now = nowMs();
      const batch: ReadableSpan[] = [];
      while (queue.length > 0 && batch.length < config.batchSize) {
        const kept = queue.shift()!;
        held -= 1;
        for (const span of spansOf(kept, source, now)) batch.push(span);
      }
      try {
        await deadline(send(batch));
        exported += batch.length;
      } catch {
        failed += batch.length;
      }
    }
  };

  const sendNow = (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer);
    const settle = settleScheduled;
    timer = undefined;
    scheduled = undefined;
    settleScheduled = undefined;
    sending ??= drain().finally(() => {
      sending = undefined;
      if (queue.length > 0) void schedule();
    });
    if (settle) void sending.then(settle);
    return sending;
  };

  /** The export of what is queued, within flushMs (at once when a batch is full). */
  const schedule = (): Promise<void> => {
    if (queue.length >= config.batchSize && sending === undefined) return sendNow();
    if (scheduled) return scheduled;
    scheduled = new Promise<void>((resolve) => {
      settleScheduled = resolve;
      timer = setTimeout(sendNow, config.flushMs);
      // Node: a pending export does not hold the process open (the drain flushes it).
      (timer as { unref?: () => void }).unref?.();
    });
    return scheduled;
  };

  const enqueue = (kept: KeptTrace): Promise<void> => {
    queue.push(kept);
    return schedule();
  };

  return {
    deferred: options.deferred === true,
    take(record, log, keepAlive) {
      const verdict = verdictAtAnswer(record, log, rules);
      if (verdict === undefined) return undefined;
      if (held >= config.queueSize) {
        dropped += 1 + log.calls.length;
        return 'dropped';
      }
      held += 1;
      const wait = log.shadow;
      if (!wait || wait.settled) {
        const sent = enqueue({ record, log, verdict });
        keepAlive?.(sent);
        return verdict;
      }
      // Waits for its comparison (its own deadline bounds it): exported with it, or, kept only if it differs (or api2 failed it), not at all.
      const settled = new Promise<void>((resolve) => {
        wait.then = () => {
          if (verdict === 'if-shadow-differs' && !shadowOutcomeKept(wait.record?.outcome)) {
            held -= 1;
            resolve();
            return;
          }
          resolve(enqueue({ record, log, verdict }));
        };
      });
      keepAlive?.(settled);
      return verdict;
    },
    counts: () => ({ exported, dropped, failed, held }),
    async flush() {
      if (sending) await sending;
      if (queue.length > 0) await sendNow();
    },
  };
}

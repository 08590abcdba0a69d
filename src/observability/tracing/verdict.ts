/**
 * What becomes of a request's trace, decided at its answer, in process (tail-kept sampling): the
 * usage line's `traced` (src/observability/log-schema.ts). Pure.
 *
 * DECISION: ordinary requests are exported at the head ratio, judged from the trace id (its last
 * 8 hex digits read as a fraction of 2^32, as OpenTelemetry's TraceIdRatioBased sampler does), so
 * every replica, and every gateway of a fleet, keeps the same traces; the kept kinds
 * (src/config/tracing.ts `KEPT_KINDS`) are exported whatever the ratio. A request whose shadow
 * comparison is running waits for it: `if-shadow-differs` says its trace is exported exactly when
 * the comparison's line says `differ` or `unavailable` (api2 failed the comparison: an outage is as
 * worth following as a difference; a race or a skip is not).
 */
import type { KeptKind, TraceVerdict, TracingConfig } from '../../config/tracing.js';
import type { RequestRecord } from '../../gateway/request-record.js';
import type { SpanLog } from './span-log.js';

export type VerdictRules = Pick<TracingConfig, 'headRatio' | 'honorClientSampled' | 'moveWindowMs'> & { readonly keep: ReadonlySet<KeptKind> };

export function verdictRules(config: TracingConfig): VerdictRules {
  return { headRatio: config.headRatio, honorClientSampled: config.honorClientSampled, moveWindowMs: config.moveWindowMs, keep: new Set(config.keep) };
}

/** The kept kind of a request known at its answer, if any (the first that applies, in this order). */
export function keptAtAnswer(record: Readonly<RequestRecord>, rules: VerdictRules): Exclude<KeptKind, 'shadow-differed'> | undefined {
  const { keep } = rules;
  const status = record.status ?? 0;
  if (keep.has('failed') && status >= 500) return 'failed';
  if (keep.has('fallback') && record.fallback === true) return 'fallback';
  // The gateway answered by itself with a refusal (not a client that went away).
  if (keep.has('refused') && record.mode === undefined && record.error !== undefined && record.error !== 'client-gone' && status >= 400) return 'refused';
  if (keep.has('moving') && record.stepSince !== undefined && record.startedAt - record.stepSince < rules.moveWindowMs) return 'moving';
  return undefined;
}

/** Whether a request kept `if-shadow-differs` is exported, by its comparison's outcome. */
export const shadowOutcomeKept = (outcome: string | undefined): boolean => outcome === 'differ' || outcome === 'unavailable';

/** Whether the head ratio takes this trace id (32 hex digits). */
export function headTakes(traceId: string, ratio: number): boolean {
  if (ratio >= 1) return true;
  if (ratio <= 0) return false;
  return parseInt(traceId.slice(-8), 16) / 2 ** 32 < ratio;
}

/** The verdict at the answer (before the queue has its say): undefined when the trace is not exported. */
export function verdictAtAnswer(record: Readonly<RequestRecord>, log: SpanLog, rules: VerdictRules): TraceVerdict | undefined {
  const kept = keptAtAnswer(record, rules);
  if (kept) return kept;
  if ((rules.honorClientSampled && log.clientSampled) || (record.traceId !== undefined && headTakes(record.traceId, rules.headRatio))) return 'sampled';
  if (log.shadow && rules.keep.has('shadow-differed')) return 'if-shadow-differs';
  return undefined;
}

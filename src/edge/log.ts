/**
 * The usage log on edge runtimes: one JSON line per request record on the console, which the
 * platform ships to its log pipeline (Workers Logs, Logpush, `wrangler tail`). The line has the
 * same bytes as the Node usage log's lines, written by the same function (src/observability/
 * log-fields.ts `logLine`, from the fields declared in log-schema.ts), so `npm run report` reads both alike.
 * Records are `info` (30), answers 5xx `warn` (40), filtered by `observability.log.level`.
 * Every request line names its origin: `instance` (observability.instance, else one id per
 * isolate) and `config` (a hash of the config document in force).
 */
import type { ObservabilityConfig } from '../config/observability.js';
import type { RecordSink } from '../gateway/request-record.js';
import { logLine as requestLine } from '../observability/log-fields.js';
import type { LogOrigin } from '../observability/log-fields.js';

/** pino's numeric levels, so edge and Node lines compare alike. */
export const LEVELS = { debug: 20, info: 30, warn: 40, error: 50, silent: Infinity } as const;

export type LogWriter = (line: string) => void;

/** A JSON line for anything other than a request record (startup notes, config errors). */
export function logLine(write: LogWriter, level: keyof typeof LEVELS, msg: string, fields: Record<string, unknown> = {}): void {
  write(JSON.stringify({ level: LEVELS[level], time: Date.now(), ...fields, msg }));
}

/** One id per isolate, drawn on first use (workerd refuses random values in the global scope). */
let isolate: string | undefined;

/**
 * The origin of the edge's lines. DECISION: the config version on the edge is a 32-bit FNV-1a hash
 * (8 hex digits) of the config document's text (the binding as given), computed synchronously.
 */
export function edgeOrigin(instance: string | undefined, configText: string): LogOrigin {
  let hash = 0x811c9dc5;
  for (let i = 0; i < configText.length; i++) hash = Math.imul(hash ^ configText.charCodeAt(i), 0x01000193);
  return { instance: instance ?? (isolate ??= `isolate-${crypto.randomUUID()}`), config: (hash >>> 0).toString(16).padStart(8, '0') };
}

/** The record sink, or undefined when the log is off. */
export function createConsoleSink(config: ObservabilityConfig['log'], write: LogWriter, origin: LogOrigin): RecordSink | undefined {
  if (!config.enabled) return undefined;
  const threshold = LEVELS[config.level];
  if (threshold === Infinity) return undefined;
  return (record) => {
    const level = (record.status ?? 0) >= 500 ? LEVELS.warn : LEVELS.info;
    if (level < threshold) return;
    write(requestLine(record, level, record.answeredAt ?? Date.now(), origin));
  };
}

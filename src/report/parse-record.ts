/**
 * One usage-log line → a request record, another JSON line (ignored), or a broken line with its
 * reason. Request records are the lines with `"msg":"request"` (src/observability/log-fields.ts).
 */
import type { LogRecord } from './types.js';

export type ParsedLine =
  | { readonly kind: 'record'; readonly record: LogRecord }
  | { readonly kind: 'other' }
  | { readonly kind: 'broken'; readonly reason: string };

const OTHER: ParsedLine = { kind: 'other' };

export function parseLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'broken', reason: line.trimStart().startsWith('{') ? 'not valid JSON (truncated?)' : 'not a JSON line' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'broken', reason: 'not a JSON object' };
  return fromFields(value as Record<string, unknown>);
}

function fromFields(raw: Record<string, unknown>): ParsedLine {
  if (raw['msg'] !== 'request') return OTHER;

  const time = timeOf(raw['time']);
  if (time === undefined) return invalid('time');
  const operation = raw['operation'];
  if (typeof operation !== 'string' || operation === '') return invalid('operation');
  const status = raw['status'];
  if (typeof status !== 'number' || !Number.isInteger(status)) return invalid('status');
  const mode = raw['mode'];
  if (typeof mode !== 'string' || mode === '') return invalid('mode');
  const latency = raw['latencyMs'];
  return {
    kind: 'record',
    record: {
      time,
      method: str(raw['method']) ?? 'GET',
      operation,
      pathTemplate: str(raw['pathTemplate']),
      mode,
      form: str(raw['form']),
      versionPrefix: str(raw['versionPrefix']),
      scheme: str(raw['scheme']),
      insecure: raw['insecure'] === true,
      client: str(raw['client']),
      clientLabel: str(raw['clientLabel']),
      status,
      latencyMs: typeof latency === 'number' && latency >= 0 ? latency : undefined,
      cache: str(raw['cache']),
    },
  };
}

function invalid(field: string): ParsedLine {
  return { kind: 'broken', reason: `request record without a valid "${field}"` };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Epoch ms (pino's default) or an ISO string. */
function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

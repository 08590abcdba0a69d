/**
 * One usage-log line → a request record (its fields read as the log schema types them,
 * src/observability/log-schema.ts), a shadow comparison, another JSON line (ignored), or a
 * broken line with its reason. Request records are the lines with `"msg":"request"`
 * (src/observability/log-fields.ts); shadow comparisons those with `"msg":"shadow"`, written by
 * `UsageLog.event` (src/observability/node/usage-log.ts) from a `ShadowRecord`
 * (src/traffic/shadow.ts): the record's own ISO `time` is dropped and pino's epoch-ms `time` kept,
 * an undefined `requestId` is left out:
 *
 *   {"level":30,"time":1767607200000,"kind":"shadow","requestId":"…","operation":"recipes.search",
 *    "outcome":"differ","diffs":[{"path":"Results[].Title","kind":"changed"}],"noise":[],
 *    "legacyStatus":200,"api2Status":200,"msg":"shadow"}
 */
import { RECORD_FIELDS } from '../observability/log-schema.js';
import type { LogFieldType, RecordFieldName } from '../observability/log-schema.js';
import type { LogRecord, ShadowLine } from './types.js';

export type ParsedLine =
  | { readonly kind: 'record'; readonly record: LogRecord }
  | { readonly kind: 'shadow'; readonly shadow: ShadowLine }
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
  return parseValue(value);
}

/** The same for a line already parsed as JSON. */
export function parseValue(value: unknown): ParsedLine {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'broken', reason: 'not a JSON object' };
  return fromFields(value as Record<string, unknown>);
}

function fromFields(raw: Record<string, unknown>): ParsedLine {
  const msg = raw['msg'];
  if (msg === 'shadow') return shadowFromFields(raw);
  if (msg !== 'request') return OTHER;

  const time = timeOf(raw['time']);
  if (time === undefined) return invalid('time');
  const record: Record<string, unknown> = { time };
  for (const name of READ) record[name] = readAs(TYPES.get(name) ?? 'string', raw[name]);
  for (const name of REQUIRED) if (record[name] === undefined || record[name] === '') return invalid(name);
  record['method'] ??= 'GET';
  return { kind: 'record', record: record as unknown as LogRecord };
}

/** The request-line fields the report reads, typed by the log schema; these must be valid, else the line is broken. */
const READ: readonly RecordFieldName[] = ['method', 'operation', 'pathTemplate', 'mode', 'form', 'versionPrefix', 'scheme', 'insecure', 'client', 'clientLabel', 'status', 'latencyMs', 'cache', 'routeMode', 'fallback'];
const REQUIRED: readonly RecordFieldName[] = ['operation', 'status', 'mode'];
const TYPES = new Map<string, LogFieldType>(RECORD_FIELDS.map((spec) => [spec.name, spec.type]));

/** A field's value as its schema type reads it; undefined when it is absent or not of that type. */
function readAs(type: LogFieldType, value: unknown): unknown {
  switch (type) {
    case 'true':
    case 'boolean':
      return value === true;
    case 'status':
    case 'count':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
    case 'ms':
      return typeof value === 'number' && value >= 0 ? value : undefined;
    default:
      return typeof value === 'string' ? value : undefined;
  }
}

const OUTCOMES: ReadonlySet<unknown> = new Set(['equal', 'differ', 'skipped']);

function shadowFromFields(raw: Record<string, unknown>): ParsedLine {
  if (raw['kind'] !== undefined && raw['kind'] !== 'shadow') return invalidShadow('kind');
  const time = timeOf(raw['time']);
  if (time === undefined) return invalidShadow('time');
  const operation = raw['operation'];
  if (typeof operation !== 'string' || operation === '') return invalidShadow('operation');
  const outcome = raw['outcome'];
  if (!OUTCOMES.has(outcome)) return invalidShadow('outcome');
  const reason = raw['reason'];
  if (reason !== undefined && typeof reason !== 'string') return invalidShadow('reason');
  const diffs = pathsOf(raw['diffs'], (d) => (typeof d === 'object' && d !== null ? (d as Record<string, unknown>)['path'] : undefined));
  if (diffs === undefined) return invalidShadow('diffs');
  const noise = pathsOf(raw['noise'], (n) => n);
  if (noise === undefined) return invalidShadow('noise');
  return {
    kind: 'shadow',
    shadow: { time, operation, outcome: outcome as ShadowLine['outcome'], reason, diffs, noise },
  };
}

/** An absent list is empty; a list whose every entry gives a non-empty string path, those paths; else undefined. */
function pathsOf(value: unknown, path: (entry: unknown) => unknown): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const paths: string[] = [];
  for (const entry of value) {
    const p = path(entry);
    if (typeof p !== 'string' || p === '') return undefined;
    paths.push(p);
  }
  return paths;
}

function invalid(field: string): ParsedLine {
  return { kind: 'broken', reason: `request record without a valid "${field}"` };
}

function invalidShadow(field: string): ParsedLine {
  return { kind: 'broken', reason: `shadow record without a valid "${field}"` };
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

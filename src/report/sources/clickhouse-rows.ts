/**
 * One usage-log line → one row of the ClickHouse table (clickhouse-ddl.ts) as a JSONEachRow
 * line, or why it is not one. The line is judged by the report's own reader (parse-record.ts), so
 * a line the file reader counts is exactly a line ingested, and a line it calls broken is skipped.
 *
 * Values are made to fit the columns: booleans 0/1, milliseconds rounded to 0.01 ms (DECISION:
 * the gateway writes that resolution; a finer value from another writer is rounded), counts that
 * are not non-negative integers dropped, a shadow line's diffs reduced to their paths. A field
 * without a value is left out of the row (ClickHouse stores the column's default: NULL, 0, '' or
 * []). A line without a request id (a shadow comparison whose request had none) gets a hash of
 * the line as its dedupe key, so a retried ingest still stores it once. Built as text: this runs
 * once per line of logs of any size.
 */
import { createHash } from 'node:crypto';
import { parseValue } from '../parse-record.js';
import { STORED_FIELDS } from '../../observability/log-schema.js';
import type { LogFieldSpec } from '../../observability/log-schema.js';

export type RowOutcome =
  | { readonly kind: 'row'; readonly row: string; readonly shadow: boolean; readonly time: number }
  | { readonly kind: 'other' }
  | { readonly kind: 'broken'; readonly reason: string };

const OTHER: RowOutcome = { kind: 'other' };
/** Taken from the parsed line rather than the raw one. */
const FROM_PARSED = new Set(['time', 'method', 'msg', 'outcome', 'reason', 'diffs', 'noise']);
const COPIED = STORED_FIELDS.filter((spec) => !FROM_PARSED.has(spec.name)).map((spec) => ({ spec, key: `,${JSON.stringify(spec.name)}:` }));

export function rowOfLine(line: string): RowOutcome {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { kind: 'broken', reason: line.trimStart().startsWith('{') ? 'not valid JSON (truncated?)' : 'not a JSON line' };
  }
  const parsed = parseValue(raw);
  if (parsed.kind === 'broken') return parsed;
  if (parsed.kind === 'other') return OTHER;
  const fields = raw as Record<string, unknown>;
  let row: string;
  const time = Math.floor(parsed.kind === 'record' ? parsed.record.time : parsed.shadow.time);
  if (parsed.kind === 'record') {
    row = `{"msg":"request","time":${time},"method":${JSON.stringify(parsed.record.method)}`;
  } else {
    const { outcome, reason, diffs, noise } = parsed.shadow;
    row = `{"msg":"shadow","time":${Math.floor(time)},"outcome":"${outcome}","diffs":${JSON.stringify(diffs)},"noise":${JSON.stringify(noise)}`;
    if (reason !== undefined) row += `,"reason":${JSON.stringify(reason)}`;
  }
  for (const { spec, key } of COPIED) {
    const value = columnValue(spec, fields[spec.name]);
    if (value !== undefined) row += key + value;
  }
  if (typeof fields['requestId'] !== 'string' || fields['requestId'] === '') {
    row += `,"requestId":"line:${createHash('sha256').update(line).digest('hex').slice(0, 32)}"`;
  }
  return { kind: 'row', row: `${row}}`, shadow: parsed.kind === 'shadow', time };
}

/** The value as JSON text for its column, or undefined to leave the column to its default. */
function columnValue(spec: LogFieldSpec, value: unknown): string | undefined {
  switch (spec.type) {
    case 'string': return typeof value === 'string' ? JSON.stringify(value) : undefined;
    case 'true':
    case 'boolean': return value === true ? '1' : undefined;
    case 'level':
    case 'status': return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < (spec.type === 'level' ? 256 : 65_536) ? String(value) : undefined;
    case 'count': return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
    case 'ms': return typeof value === 'number' && value >= 0 && value < 1e10 ? String(Math.round(value * 100) / 100) : undefined;
    case 'epoch-ms':
    case 'paths': return undefined;
  }
}

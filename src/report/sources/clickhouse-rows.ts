/**
 * One usage-log line → one row of the ClickHouse table (clickhouse-ddl.ts), or why it is not
 * one. The line is judged by the report's own reader (parse-record.ts), so a line the file
 * reader counts is exactly a line ingested, and a line it calls broken is skipped.
 *
 * Values are made to fit the columns: booleans 0/1, milliseconds rounded to 0.01 ms (DECISION:
 * the gateway writes that resolution; a finer value from another writer is rounded), counts that
 * are not non-negative integers dropped, a shadow line's diffs reduced to their paths. A line
 * without a request id (a shadow comparison whose request had none) gets a hash of the line as
 * its dedupe key, so a retried ingest still stores it once.
 */
import { createHash } from 'node:crypto';
import { parseLine } from '../parse-record.js';
import { COLUMNS } from './clickhouse-ddl.js';
import { STORED_FIELDS } from '../../observability/log-schema.js';
import type { LogFieldSpec } from '../../observability/log-schema.js';

export type RowOutcome =
  | { readonly kind: 'row'; readonly row: string; readonly shadow: boolean }
  | { readonly kind: 'other' }
  | { readonly kind: 'broken'; readonly reason: string };

const OTHER: RowOutcome = { kind: 'other' };
const SPECS = new Map<string, LogFieldSpec>(STORED_FIELDS.map((spec) => [spec.name, spec]));

export function rowOfLine(line: string): RowOutcome {
  const parsed = parseLine(line);
  if (parsed.kind === 'broken') return parsed;
  if (parsed.kind === 'other') return OTHER;
  const raw = JSON.parse(line) as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const { name } of COLUMNS) row[name] = columnValue(SPECS.get(name)!, raw[name]);
  if (parsed.kind === 'record') {
    const record = parsed.record;
    row['time'] = Math.floor(record.time);
    row['method'] = record.method;
    row['msg'] = 'request';
  } else {
    const shadow = parsed.shadow;
    Object.assign(row, { time: Math.floor(shadow.time), msg: 'shadow', outcome: shadow.outcome, reason: shadow.reason ?? null, diffs: shadow.diffs, noise: shadow.noise });
  }
  if (row['requestId'] === '') row['requestId'] = `line:${createHash('sha256').update(line).digest('hex').slice(0, 32)}`;
  return { kind: 'row', row: JSON.stringify(row), shadow: parsed.kind === 'shadow' };
}

function columnValue(spec: LogFieldSpec, value: unknown): unknown {
  switch (spec.type) {
    case 'string': return typeof value === 'string' ? value : spec.optional ? null : '';
    case 'true':
    case 'boolean': return value === true ? 1 : 0;
    case 'level': return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 256 ? value : 30;
    case 'status': return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 65_536 ? value : 0;
    case 'count': return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
    case 'ms': return typeof value === 'number' && value >= 0 && value < 1e10 ? Math.round(value * 100) / 100 : null;
    case 'epoch-ms': return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
    case 'paths': return [];
  }
}

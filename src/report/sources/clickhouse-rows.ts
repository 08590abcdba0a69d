/**
 * One usage-log line → one row of the ClickHouse table (clickhouse-ddl.ts) as a JSONEachRow
 * line, or why it is not one. The line is read by the report's own reader (parse-record.ts), and
 * the row is made of the values that reader took (`fields`), so a line the file reader counts is
 * exactly a row with the same values, and a line it calls broken is skipped with the same reason.
 *
 * Values are written as their columns take them: booleans 0/1, a shadow line's diffs reduced to
 * their paths. A field without a value is left out of the row (ClickHouse stores the column's
 * default: NULL, 0, '' or []). A line without the `id` the gateway makes (a log written before it
 * had one, another writer's line) gets as its `id` a hash of the line and of its line number, so a
 * retried ingest of the same input still stores it once and two equal lines are still two rows, as
 * the file reader counts them. Built as text: this runs once per line of logs of any size.
 */
import { createHash } from 'node:crypto';
import { parseValue } from '../parse-record.js';
import { STORED_FIELDS } from '../../observability/log-schema.js';
import type { LogFieldType } from '../../observability/log-schema.js';

/** What a stored line counts as: a request record, a shadow comparison, or another line (a breaker transition, a rollout decision). */
export type RowKind = 'record' | 'shadow' | 'other';

export type RowOutcome =
  | { readonly kind: 'row'; readonly row: string; readonly counted: RowKind; readonly time: number }
  | { readonly kind: 'other' }
  | { readonly kind: 'broken'; readonly reason: string };

const OTHER: RowOutcome = { kind: 'other' };
/** Each stored column but `msg` and the shadow line's own (taken from the parsed comparison), with the text that opens it in a row. */
const COLUMNS = STORED_FIELDS.filter((spec) => !['msg', 'outcome', 'reason', 'diffs', 'noise'].includes(spec.name)).map((spec) => ({
  name: spec.name,
  type: spec.type,
  key: `,${JSON.stringify(spec.name)}:`,
}));

export function rowOfLine(line: string, lineNumber: number): RowOutcome {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { kind: 'broken', reason: line.trimStart().startsWith('{') ? 'not valid JSON (truncated?)' : 'not a JSON line' };
  }
  const parsed = parseValue(raw);
  if (parsed.kind === 'broken') return parsed;
  if (parsed.kind === 'other') return OTHER;
  const { fields } = parsed;
  let row: string;
  if (parsed.kind === 'record') {
    row = '{"msg":"request"';
  } else if (parsed.kind === 'breaker') {
    row = '{"msg":"breaker"';
  } else if (parsed.kind === 'rollout') {
    row = '{"msg":"rollout"';
  } else {
    const { outcome, reason, diffs, noise } = parsed.shadow;
    row = `{"msg":"shadow","outcome":"${outcome}","diffs":${JSON.stringify(diffs)},"noise":${JSON.stringify(noise)}`;
    if (reason !== undefined) row += `,"reason":${JSON.stringify(reason)}`;
  }
  for (const { name, type, key } of COLUMNS) {
    const value = fields[name];
    if (value !== undefined) row += key + columnValue(type, value);
  }
  if (fields['id'] === undefined || fields['id'] === '') {
    row += `,"id":"line:${createHash('sha256').update(`${lineNumber}\n${line}`).digest('hex').slice(0, 32)}"`;
  }
  return { kind: 'row', row: `${row}}`, counted: parsed.kind === 'breaker' || parsed.kind === 'rollout' ? 'other' : parsed.kind, time: fields['time'] as number };
}

/** A value as read from the line (parse-record.ts), as JSON text for its column. */
function columnValue(type: LogFieldType, value: unknown): string {
  return type === 'true' || type === 'boolean' ? (value ? '1' : '0') : JSON.stringify(value);
}

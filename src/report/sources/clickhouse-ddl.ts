/**
 * The ClickHouse table of the usage log, generated from the log schema
 * (src/observability/log-schema.ts): one column per stored field, named as in the log line, so
 * that a log shipper (Vector, Fluent Bit) can insert the gateway's lines as they are
 * (`FORMAT JSONEachRow`) once booleans are 0/1 and shadow diffs are paths.
 *
 * - ReplacingMergeTree: a line inserted twice (an ingest retried, a shipper's at-least-once
 *   delivery) is one row once merged, and at once for queries with FINAL. The sorting key ends
 *   with `id`, the dedupe key: the identity the gateway makes for each line (never the client's
 *   request id, which clients reuse: two requests are never one row); it starts with what the
 *   report groups by.
 * - Partitioned by UTC day: old days are dropped whole (`ALTER TABLE … DROP PARTITION`), or by a
 *   TTL (`ttlDays`, ClickHouse 19.6 and later; 18.16 has no TTL).
 * - A table made before a field was declared gains its column: `ingest` adds the missing ones
 *   (`addColumnsSql`) after `CREATE TABLE IF NOT EXISTS`; a new column is Nullable, so older
 *   rows read NULL (a table a shipper made needs the same ALTER: docs/analytics-clickhouse.md).
 * - Milliseconds are a Decimal(12, 2) (the gateway writes 0.01 ms resolution): ClickHouse 18.16
 *   has no DateTime64 and parses some decimal floats one ulp off, a Decimal is exact. `time` stays
 *   epoch milliseconds in a UInt64.
 */
import { STORED_FIELDS } from '../../observability/log-schema.js';
import type { LogFieldSpec } from '../../observability/log-schema.js';

export const DEFAULT_TABLE = 'usage_log';

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

export function isTableName(name: string): boolean {
  return TABLE_NAME.test(name);
}

/** The ClickHouse type of a field. Required strings are never NULL: a shadow line stores '' in the request columns it lacks. */
export function columnType(spec: LogFieldSpec): string {
  switch (spec.type) {
    case 'string': return spec.optional ? 'Nullable(String)' : 'String';
    case 'true':
    case 'boolean': return 'UInt8';
    case 'level': return 'UInt8';
    case 'status': return 'UInt16';
    case 'count': return 'Nullable(UInt64)';
    case 'ms': return 'Nullable(Decimal(12, 2))';
    case 'epoch-ms': return 'UInt64';
    case 'paths': return 'Array(String)';
  }
}

export interface Column {
  readonly name: string;
  readonly type: string;
  readonly comment: string;
}

export const COLUMNS: readonly Column[] = STORED_FIELDS.map((spec) => ({ name: spec.name, type: columnType(spec), comment: spec.description }));

/** The UTC day of a row, from its epoch-ms `time`. */
const DAY = "toDate(toDateTime(intDiv(time, 1000)), 'UTC')";

export const SORTING_KEY = ['msg', 'operation', 'mode', 'time', 'instance', 'id'] as const;

export interface TableOptions {
  /** Rows older than this many days are deleted by ClickHouse (needs ClickHouse ≥ 19.6). */
  readonly ttlDays?: number;
}

export function createTableSql(table: string, options: TableOptions = {}): string {
  if (!isTableName(table)) throw new Error(`not a table name: ${table}`);
  const columns = COLUMNS.map((c) => `  \`${c.name}\` ${c.type}`).join(',\n');
  const ttl = options.ttlDays !== undefined ? `\nTTL ${DAY} + INTERVAL ${Math.floor(options.ttlDays)} DAY` : '';
  return (
    `CREATE TABLE IF NOT EXISTS ${table} (\n${columns}\n)\n` +
    `ENGINE = ReplacingMergeTree\nPARTITION BY ${DAY}\nORDER BY (${SORTING_KEY.join(', ')})${ttl}`
  );
}

/** The ALTERs that give a table made before some fields were declared their columns (none when it has them all). */
export function addColumnsSql(table: string, existing: ReadonlySet<string>): string[] {
  if (!isTableName(table)) throw new Error(`not a table name: ${table}`);
  return COLUMNS.filter((c) => !existing.has(c.name)).map((c) => `ALTER TABLE ${table} ADD COLUMN \`${c.name}\` ${c.type}`);
}

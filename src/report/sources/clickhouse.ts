/**
 * Node-only: the clickhouse source: the report's counts by SQL from the usage-log table
 * (clickhouse-ddl.ts), filled by `npm run report -- ingest` or a log shipper.
 */
import { countsFromClickHouse } from './clickhouse-counts.js';
import type { ClickHouseTarget } from './clickhouse-http.js';
import type { ReportSource } from './source.js';

export function clickHouseSource(target: ClickHouseTarget, table: string): ReportSource {
  return {
    inputs: [`${target.shown} (table ${table})`],
    counts: () => countsFromClickHouse(target, table),
  };
}

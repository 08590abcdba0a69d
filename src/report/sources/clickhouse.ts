/**
 * Node-only: the clickhouse source: the report's counts by SQL from the usage-log table
 * (clickhouse-ddl.ts), filled by `npm run report -- ingest` or a log shipper.
 */
import { countsFromClickHouse } from './clickhouse-counts.js';
import type { ClickHouseTarget } from './clickhouse-http.js';
import type { ReportSource } from './source.js';

/**
 * DECISION: the table is read as it is (duplicates collapse when ClickHouse merges parts; `ingest`
 * merges the days it loaded before it ends); `final` reads with FINAL, exact even while a log
 * shipper's retried batches are not merged yet, several times slower on ClickHouse 18.16.
 */
export function clickHouseSource(target: ClickHouseTarget, table: string, options: { readonly final?: boolean; readonly since?: number | undefined; readonly stepBucketMs?: number | undefined } = {}): ReportSource {
  return {
    inputs: [`${target.shown} (table ${table}${options.final ? ', FINAL' : ''})`],
    counts: () => countsFromClickHouse(target, table, options.final ?? false, options.since, options.stepBucketMs),
  };
}

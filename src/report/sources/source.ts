/**
 * Where the migration report's counts come from. Every source fills the same counts
 * (src/report/aggregate.ts), from which build-report.ts makes the one report:
 *
 * - files-or-stdin (files.ts): usage-log files read in one pass by this process, the embedded
 *   default for one machine;
 * - clickhouse (clickhouse.ts): a fleet's usage log in a ClickHouse table, counted by SQL.
 */
import type { Aggregator } from '../aggregate.js';

export interface ReportSource {
  /** What the report says it was made from (file names, or the ClickHouse URL and table). */
  readonly inputs: readonly string[];
  counts(): Promise<Aggregator>;
}

/**
 * Node-only: a client's usage for its guide, from the report's sources: usage-log files or stdin
 * (read-lines.ts, parse-record.ts: the same reading as the report) or the ClickHouse table
 * (summed by SQL per client, operation and side, per client and program, and per client,
 * operation and params: the most frequent ones).
 */
import { parseLine } from '../parse-record.js';
import { readLines } from '../read-lines.js';
import { select, sqlString, tableColumns } from '../sources/clickhouse-http.js';
import type { ClickHouseTarget } from '../sources/clickhouse-http.js';
import { UsageTally } from './usage.js';
import type { GuideFilter } from './usage.js';
import { TOP_REQUESTS_KEPT } from './top-requests.js';

export async function usageFromFiles(inputs: readonly string[], filter: GuideFilter): Promise<UsageTally> {
  const tally = new UsageTally(filter);
  for (const input of inputs) {
    await readLines(input, (line) => {
      const parsed = parseLine(line);
      if (parsed.kind === 'record') tally.add(parsed.record);
    });
  }
  return tally;
}

/** The same sums from ClickHouse: one row per client (label, else hash), hash, operation and side. */
export async function usageFromClickHouse(target: ClickHouseTarget, table: string, filter: GuideFilter): Promise<UsageTally> {
  const tally = new UsageTally(filter);
  const wanted = filter.clients === undefined ? '' : ` AND (ifNull(clientLabel, client) IN (${[...filter.clients].map(sqlString).join(', ')}) OR client IN (${[...filter.clients].map(sqlString).join(', ')}))`;
  // The lines a guide counts (UsageTally.add), for both sums.
  const counted = `msg = 'request' AND operation != 'unrouted' AND isNotNull(client) AND time >= ${Math.max(0, Math.floor(filter.since))}${wanted}`;
  const rows = await select(
    target,
    `SELECT ifNull(clientLabel, client) AS who, client, operation, mode, count(), min(time), max(time) FROM ${table}
WHERE ${counted}
GROUP BY who, client, operation, mode`,
  );
  for (const [who, client, operation, mode, n, first, last] of rows) {
    tally.addCounts(String(who), String(client), String(operation), String(mode), Number(n), Number(first), Number(last));
  }
  const programs = await select(
    target,
    `SELECT ifNull(clientLabel, client) AS who, clientProgram, count() FROM ${table}
WHERE ${counted} AND isNotNull(clientProgram)
GROUP BY who, clientProgram`,
  );
  for (const [who, program, n] of programs) tally.addProgram(String(who), String(program), Number(n));
  // Each client's most frequent params per operation, as many as the file tally keeps, ranked alike (TopRequests.ranked);
  // none from a table made before the field (a shipper's: ingest adds the column), as from older log lines.
  if (!(await tableColumns(target, table)).has('params')) return tally;
  const requests = await select(
    target,
    `SELECT ifNull(clientLabel, client) AS who, operation, params, count() AS n FROM ${table}
WHERE ${counted} AND isNotNull(params) AND status < 400
GROUP BY who, operation, params
ORDER BY who, operation, n DESC, params
LIMIT ${TOP_REQUESTS_KEPT} BY who, operation`,
  );
  for (const [who, operation, params, n] of requests) tally.addRequests(String(who), String(operation), String(params), Number(n));
  return tally;
}

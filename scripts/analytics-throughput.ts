/**
 * Records per second and wall time of the migration report through the file reader and through
 * ClickHouse, for the same generated usage log (test/support/log-fixtures.ts generatedLines;
 * default 5,000,000 request records plus about 5 % shadow lines). Starts its own clickhouse-server
 * (Debian's package, as the tests do) unless `--clickhouse URL` names one. Not asserted anywhere:
 * figures to quote (docs/analytics-clickhouse.md). After the reports, each query of the report
 * (src/report/sources/clickhouse-queries.ts) is timed alone, to show where ClickHouse's time goes.
 *
 *   nice npx tsx scripts/analytics-throughput.ts [RECORDS] [--clickhouse URL] [--skip-file]
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { reportFrom } from '../src/report/run.js';
import { clickHouseSource } from '../src/report/sources/clickhouse.js';
import { ingest } from '../src/report/sources/clickhouse-ingest.js';
import { clickHouseTarget, execute, select } from '../src/report/sources/clickhouse-http.js';
import * as sql from '../src/report/sources/clickhouse-queries.js';
import { filesSource } from '../src/report/sources/files.js';
import { generatedLines } from '../test/support/log-fixtures.js';
import { startClickHouse } from '../test/support/clickhouse-server.js';

const count = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 5_000_000);
const urlArg = process.argv.indexOf('--clickhouse');
const CHUNK = 100_000;
const TABLE = 'usage_log_throughput';

const dir = await mkdtemp(join(tmpdir(), 'analytics-throughput-'));
const file = join(dir, 'access.log');
const out = createWriteStream(file);
for (let first = 0; first < count; first += CHUNK) {
  if (!out.write(`${generatedLines(Math.min(CHUNK, count - first), 1, first).join('\n')}\n`)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');
const megabytes = (await stat(file)).size / 1e6;
const say = (text: string): boolean => process.stdout.write(`${text}\n`);
say(`generated ${count.toLocaleString('en-US')} request records (+ shadow lines), ${megabytes.toFixed(0)} MB`);

const server = urlArg > 0 ? undefined : await startClickHouse();
const target = clickHouseTarget(urlArg > 0 ? process.argv[urlArg + 1]! : server!.url, 600_000);
const rate = (n: number, seconds: number): string => `${Math.round(n / seconds).toLocaleString('en-US')} records/s`;
const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, (performance.now() - started) / 1000];
};
try {
  const skipFile = process.argv.includes('--skip-file');
  const [fileReport, fileSeconds] = skipFile ? [undefined, 0] : await timed(() => reportFrom(filesSource([file])));
  if (fileReport) say(`file reader: report in ${fileSeconds.toFixed(1)} s wall, ${rate(fileReport.summary.records, fileSeconds)}`);

  await execute(target, `DROP TABLE IF EXISTS ${TABLE}`);
  const [loaded, ingestSeconds] = await timed(() => ingest(target, TABLE, [file]));
  say(`ingest into ClickHouse (parts merged at the end): ${ingestSeconds.toFixed(1)} s wall, ${rate(loaded.records + loaded.shadowLines, ingestSeconds)} (lines)`);

  const [chReport, chSeconds] = await timed(() => reportFrom(clickHouseSource(target, TABLE)));
  say(`ClickHouse: report in ${chSeconds.toFixed(1)} s wall, ${rate(chReport.summary.records, chSeconds)}`);
  const [, finalSeconds] = await timed(() => reportFrom(clickHouseSource(target, TABLE, { final: true })));
  say(`ClickHouse with --final: report in ${finalSeconds.toFixed(1)} s wall, ${rate(chReport.summary.records, finalSeconds)}`);
  const alone: Array<[string, string]> = [
    ['cells and latency buckets', sql.cellsSql(TABLE)],
    ['other forms', sql.otherFormsSql(TABLE)],
    ['route modes', sql.routeModesSql(TABLE)],
    ['timeline', sql.minutesSql(TABLE)],
    ['client uses and labels', sql.usesSql(TABLE)],
    ['uncatalogued', sql.uncataloguedSql(TABLE)],
    ['shadow outcomes', sql.shadowOutcomesSql(TABLE)],
    ['shadow skip reasons', sql.skipReasonsSql(TABLE)],
    ['shadow diffs', sql.shadowPathsSql(TABLE, 'diffs')],
    ['shadow noise', sql.shadowPathsSql(TABLE, 'noise')],
  ];
  for (const [name, text] of alone) {
    const [rows, seconds] = await timed(() => select(target, text));
    say(`  query alone: ${name}: ${seconds.toFixed(2)} s, ${rows.length} rows`);
  }
  if (fileReport) {
    const same = JSON.stringify({ ...chReport, generatedAt: '', inputs: [] }) === JSON.stringify({ ...fileReport, generatedAt: '', inputs: [] });
    say(`reports equal: ${same}`);
  }
  await execute(target, `DROP TABLE IF EXISTS ${TABLE}`);
} finally {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
}

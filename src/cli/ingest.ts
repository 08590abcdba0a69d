/**
 * Node-only: `npm run report -- ingest --clickhouse URL [--table NAME] [--ttl-days N] FILES...`:
 * loads usage logs into ClickHouse (sources/clickhouse-ingest.ts) and says what it did on
 * stderr, naming each malformed line it skipped (the first 100). Exit code 0 when everything was
 * read (malformed lines and rows ClickHouse refused skipped included), 1 when ClickHouse failed
 * (unreachable, too slow, no table, credentials), 2 for a usage error.
 */
import { firstUnreadable } from '../report/read-lines.js';
import { ingest } from '../report/sources/clickhouse-ingest.js';
import type { ClickHouseTarget } from '../report/sources/clickhouse-http.js';

export async function runIngest(target: ClickHouseTarget, table: string, inputs: readonly string[], ttlDays: string | undefined): Promise<number> {
  if (inputs.length === 0) {
    process.stderr.write('ingest: name the log files to load (or - for stdin)\n');
    return 2;
  }
  const days = ttlDays === undefined ? undefined : Number(ttlDays);
  if (days !== undefined && !(Number.isInteger(days) && days > 0)) {
    process.stderr.write('--ttl-days: must be a whole number of days > 0\n');
    return 2;
  }
  const unreadable = await firstUnreadable(inputs);
  if (unreadable !== undefined) {
    process.stderr.write(`cannot read ${unreadable}\n`);
    return 2;
  }
  const started = performance.now();
  const outcome = await ingest(target, table, inputs, days !== undefined ? { ttlDays: days } : {});
  const seconds = (performance.now() - started) / 1000;
  for (const broken of outcome.broken) process.stderr.write(`skipped ${broken.input}:${broken.line}: ${broken.reason}\n`);
  if (outcome.brokenCount > outcome.broken.length) process.stderr.write(`… and ${outcome.brokenCount - outcome.broken.length} more malformed lines\n`);
  const rows = outcome.records + outcome.shadowLines;
  process.stderr.write(
    `ingested ${outcome.records} records and ${outcome.shadowLines} shadow lines into ${table} at ${target.shown} in ${outcome.batches} batches, ` +
      `${seconds.toFixed(2)} s (${Math.round(rows / Math.max(seconds, 1e-6))} lines/s); ` +
      `${outcome.brokenCount} malformed lines skipped, ${outcome.otherLines} other lines ignored\n`,
  );
  return 0;
}

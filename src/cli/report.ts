#!/usr/bin/env node
/**
 * `npm run report -- [options] <log files | ->` (bin: `recipe-gateway-report`): reads usage-log
 * lines (plain or gzipped, any size, streamed) and prints the migration report.
 * `npm run report -- --clickhouse URL [options]`: the same report, counted by SQL in ClickHouse.
 * `npm run report -- ingest --clickhouse URL FILES...`: loads usage logs into ClickHouse.
 * `npm run report -- guide --client LABEL FILES...`: a migration guide per client (src/cli/guide.ts).
 */
import { writeFile } from 'node:fs/promises';
import { firstUnreadable } from '../report/read-lines.js';
import { parseArgs } from 'node:util';
import { renderHtml } from '../report/render-html.js';
import { renderText } from '../report/render-text.js';
import { runIngest } from './ingest.js';
import { runGuide } from './guide.js';
import { reportFrom } from '../report/run.js';
import { loadConfigFile } from '../node/config-file.js';
import { liveBucketMsOf } from '../migration/live-counters.js';
import type { PlansByOperation } from '../migration/rollout/client-standing.js';
import { clickHouseSource } from '../report/sources/clickhouse.js';
import { DEFAULT_TABLE, createTableSql, isTableName } from '../report/sources/clickhouse-ddl.js';
import { ClickHouseError, clickHouseTarget } from '../report/sources/clickhouse-http.js';
import { filesSource } from '../report/sources/files.js';

const USAGE = `usage: npm run report -- [options] <log files | ->   (plain or .gz; - reads stdin)
       npm run report -- [options] --clickhouse URL            (the usage-log table in ClickHouse)
       npm run report -- ingest --clickhouse URL [--table NAME] [--ttl-days N] <log files | ->
       npm run report -- ddl [--table NAME] [--ttl-days N]       (print the table's CREATE TABLE)
       npm run report -- guide (--client LABEL | --all) [options] <log files | - | --clickhouse URL>
                                                                  (a migration guide per client: guide --help)

  --clickhouse URL       count by SQL in ClickHouse (HTTP interface, http://[user:password@]host:8123/)
  --table NAME           the usage-log table in ClickHouse (default ${DEFAULT_TABLE})
  --timeout SECONDS      give up on ClickHouse after this long (default 60)
  --final                read the table with FINAL: exact while duplicates are not merged yet (slower)
  --timing               print records per second and the wall time on stderr (always printed for files)

  --json                 print the report as JSON instead of tables
  --html FILE            also write a self-contained HTML page with charts
  --config-version HASH  judge the evidence of this config version (a \`config\` hash of the log) instead of the latest
                         (a rolled-out route: of its latest step; every step is shown apart)
  --since TIME           leave out the lines written before TIME (ISO 8601, or epoch ms); rollout decisions are all read
  --config FILE          the gateway's config: every operation is judged on its plan's gates (as /admin/rollout), and each
                         client's section says which rollout plans hold it or name it in a cohort
`;

/** The guide's example legacy requests: the sandbox's (this command's start-up wires them; the report's code never imports the sandbox). */
async function sandboxExamples() {
  const { SANDBOX_BEHAVIOUR } = await import('../sandbox/behaviour.js');
  return Object.fromEntries(Object.entries(SANDBOX_BEHAVIOUR).map(([id, behaviour]) => [id, behaviour.example]));
}
/** The readiness thresholds of the report's own rule, replaced by the rollout gates: refused with a message. */
const GONE = ['min-api2', 'error-margin', 'latency-factor', 'min-agreement', 'min-shadow'] as const;

async function main(): Promise<number> {
  // `guide` has options of its own (src/cli/guide.ts).
  if (process.argv[2] === 'guide') return runGuide(process.argv.slice(3), await sandboxExamples());
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        html: { type: 'string' },
        'config-version': { type: 'string' },
        since: { type: 'string' },
        config: { type: 'string' },
        ...Object.fromEntries(GONE.map((flag) => [flag, { type: 'string' as const }])),
        clickhouse: { type: 'string' },
        table: { type: 'string', default: DEFAULT_TABLE },
        timeout: { type: 'string', default: '60' },
        timing: { type: 'boolean', default: false },
        final: { type: 'boolean', default: false },
        'ttl-days': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const clickhouse = values.clickhouse;
  const timeout = Number(values.timeout);
  if (!isTableName(values.table) || !(timeout > 0)) {
    process.stderr.write(`${!isTableName(values.table) ? `--table: not a table name: ${values.table}` : '--timeout: must be a number of seconds > 0'}\n`);
    return 2;
  }
  if (positionals[0] === 'ddl') {
    const ttlDays = values['ttl-days'] !== undefined ? Number(values['ttl-days']) : undefined;
    if (ttlDays !== undefined && !(Number.isInteger(ttlDays) && ttlDays > 0)) {
      process.stderr.write('--ttl-days: must be a whole number of days > 0\n');
      return 2;
    }
    process.stdout.write(`${createTableSql(values.table, ttlDays !== undefined ? { ttlDays } : {})};\n`);
    return 0;
  }
  const target = clickhouse !== undefined ? clickHouseTarget(clickhouse, timeout * 1000) : undefined;
  if (positionals[0] === 'ingest') {
    if (!target) {
      process.stderr.write(`ingest: --clickhouse URL is required\n${USAGE}`);
      return 2;
    }
    return runIngest(target, values.table, positionals.slice(1), values['ttl-days']);
  }
  if (target ? positionals.length > 0 : positionals.length === 0) {
    process.stderr.write(USAGE);
    return 2;
  }
  const gone = GONE.find((flag) => (values as Record<string, unknown>)[flag] !== undefined);
  if (gone !== undefined) {
    process.stderr.write(`--${gone} is gone: the report judges each operation by the rollout gates (its plan's defaults: docs/rollout.md), as the console and the rollout controller do\n`);
    return 2;
  }
  const unreadable = await firstUnreadable(positionals);
  if (unreadable !== undefined) {
    process.stderr.write(`cannot read ${unreadable}\n`);
    return 2;
  }

  let plans: PlansByOperation | undefined;
  let stepBucketMs: number | undefined;
  if (values.config !== undefined) {
    const loaded = await loadConfigFile(values.config);
    if (!loaded.ok) {
      process.stderr.write(`--config ${values.config}: ${loaded.errors.join('; ')}\n`);
      return 2;
    }
    plans = loaded.config.routes;
    // Judged as the runner judges: whole live counter buckets after a step began.
    stepBucketMs = liveBucketMsOf(loaded.config.rollout.evaluationMs);
  }
  const since = values.since === undefined ? undefined : /^\d+$/.test(values.since) ? Number(values.since) : Date.parse(values.since);
  if (since !== undefined && !Number.isFinite(since)) {
    process.stderr.write(`--since ${values.since}: not a time (ISO 8601, such as 2026-01-05T10:00:00Z, or epoch ms)\n`);
    return 2;
  }
  const started = performance.now();
  const source = target ? clickHouseSource(target, values.table, { final: values.final, since, stepBucketMs }) : filesSource(positionals, since, stepBucketMs);
  const report = await reportFrom(source, { configVersion: values['config-version'], plans, since, stepBucketMs });
  const seconds = (performance.now() - started) / 1000;
  if (values.html) {
    await writeFile(values.html, renderHtml(report));
    process.stderr.write(`HTML report written to ${values.html}\n`);
  }
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderText(report));
  if (!target || values.timing) {
    process.stderr.write(
      `${report.summary.records} records, ${report.summary.brokenLines} broken lines in ${seconds.toFixed(2)} s` +
        ` (${Math.round(report.summary.records / Math.max(seconds, 1e-6))} records/s${target ? ', counted by ClickHouse' : ''})\n`,
    );
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    // ClickHouse down, slow, or without the table: one line, exit code 1.
    process.exitCode = error instanceof ClickHouseError ? 1 : 2;
  },
);

/**
 * Usage analytics on ClickHouse, against a real clickhouse-server (Debian's package) started on a
 * free loopback port: the same generated logs loaded into ClickHouse and read by the file reader
 * give the same migration report (JSON, text and HTML); an ingest retried twice counts every record
 * once; the table generated from the log schema has a column for every field the writer puts on
 * a line; a malformed line is skipped and named; ClickHouse down, slow, or without the table is
 * one line and exit code 1.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { logLine } from '../src/observability/log-fields.js';
import { BREAKER_FIELDS, REQUEST_LINE_FIELDS, ROLLOUT_FIELDS, SHADOW_FIELDS } from '../src/observability/log-schema.js';
import { RolloutPlanSchema } from '../src/config/rollout.js';
import { renderHtml } from '../src/report/render-html.js';
import { renderText } from '../src/report/render-text.js';
import { reportFrom, reportFromInputs } from '../src/report/run.js';
import { clickHouseSource } from '../src/report/sources/clickhouse.js';
import { createTableSql } from '../src/report/sources/clickhouse-ddl.js';
import { ingest } from '../src/report/sources/clickhouse-ingest.js';
import { clickHouseTarget, execute, select } from '../src/report/sources/clickhouse-http.js';
import type { Report } from '../src/report/types.js';
import { clickHouseForThisFile, comparable } from './support/clickhouse-for-this-file.js';
import { freePort } from './support/started-process.js';
import { generatedLines, logLine as fixtureLine, scenarioLines, shadowScenarioLines, T0, tempDir, writeLog } from './support/log-fixtures.js';
import { send } from './support/http.js';
import { startTestGateway } from './support/gateway.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { nodeArgsOf } from './support/entry.js';

const run = promisify(execFile);
const node = process.execPath;
const cli = nodeArgsOf('src/cli/report.ts');

async function report(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(node, [...cli, ...args], { timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const clickHouseUrl = clickHouseForThisFile();

describe('the migration report counted by ClickHouse', () => {
  it('equals the file reader report for the same logs, as JSON, text and HTML', async () => {
    // 12,000 generated requests (one cell past the latency sketch's exact limit) and the hand-checked scenarios.
    const file = await writeLog([...generatedLines(12_000), ...scenarioLines(), ...shadowScenarioLines()]);
    const target = clickHouseTarget(clickHouseUrl());
    const loaded = await ingest(target, 'equal_reports', [file]);
    expect(loaded.brokenCount).toBe(0);

    const fromFile = await reportFromInputs([file]);
    const fromClickHouse = await reportFrom(clickHouseSource(target, 'equal_reports'));
    expect(fromFile.summary.records).toBeGreaterThan(12_000);
    expect(fromFile.operations.find((op) => op.operation === 'recipes.search')!.modes[0]!.requests).toBeGreaterThan(4096);
    expect(fromFile.told.length, 'clients told of the deprecation').toBeGreaterThan(100);
    // Every client has its section, with sides (fallbacks among them), 5xx and programs to compare.
    expect(fromFile.clientSections.length).toBe(fromFile.summary.clients);
    const sides = fromFile.clientSections.flatMap((c) => c.operations.flatMap((op) => op.sides));
    expect(sides.some((s) => s.side === 'fallback') && sides.some((s) => s.status5xx > 0) && sides.some((s) => s.status4xx > 0)).toBe(true);
    expect(fromFile.clientSections.every((c) => c.programs.reduce((sum, p) => sum + p.requests, 0) === c.requests)).toBe(true);
    expect(fromFile.clientSections.filter((c) => c.programs.some((p) => p.program === 'RecipeBox')).length).toBeGreaterThan(100);
    expect(comparable(fromClickHouse)).toEqual(comparable(fromFile));
    expect(renderText(comparable(fromClickHouse))).toBe(renderText(comparable(fromFile)));
    expect(renderHtml(comparable(fromClickHouse))).toBe(renderHtml(comparable(fromFile)));

    const viaCommand = await report(['--clickhouse', clickHouseUrl(), '--table', 'equal_reports', '--json']);
    expect(viaCommand.code).toBe(0);
    expect(comparable(JSON.parse(viaCommand.stdout) as Report)).toEqual(comparable(fromFile));
  }, 300_000);

  it('judges a rollout given --config on the same figures as the file report: a step on its whole live counter buckets', async () => {
    // recipes.search promoted to 25 % half a bucket in: the lines of that partial bucket (api2 failing) are not the step's evidence.
    const bucketMs = 1_000;
    const stepSince = T0 + 10_500;
    const rollout = (time: number, kind: string, from: unknown, to: unknown, since: number) =>
      JSON.stringify({ level: 30, time, operation: 'recipes.search', kind, from, to, status: 'running', by: 'controller', reason: kind, stepSince: since, msg: 'rollout' });
    const step = (time: number, mode: 'api2' | 'legacy', status = 200) => fixtureLine({ time, operation: 'recipes.search', mode, status, latencyMs: 20 + (time % 7), routeMode: 'canary', stepSince, config: 'c1' });
    const lines = [
      rollout(T0, 'start', 'legacy', 'shadow', T0),
      ...Array.from({ length: 40 }, (_, i) => fixtureLine({ time: T0 + 100 + i * 200, operation: 'recipes.search', mode: 'legacy', routeMode: 'shadow', stepSince: T0, config: 'c1' })),
      rollout(stepSince, 'promote', 'shadow', 25, stepSince),
      ...Array.from({ length: 20 }, (_, i) => step(stepSince + i * 20, i % 2 === 0 ? 'api2' : 'legacy', i % 2 === 0 ? 503 : 200)),
      ...Array.from({ length: 400 }, (_, i) => step(T0 + 11_000 + i * 25, i % 4 === 0 ? 'api2' : 'legacy')),
    ];
    const file = await writeLog(lines);
    const target = clickHouseTarget(clickHouseUrl());
    expect((await ingest(target, 'rollout_reports', [file])).brokenCount).toBe(0);
    const options = { plans: { 'recipes.search': { rollout: RolloutPlanSchema.parse({ steps: ['shadow', 25], minSamples: 8, gates: { shadowAgreement: {}, errorRate: { maxExcess: 0.2 }, latencyP95: {} } }) } }, stepBucketMs: bucketMs };
    const gatesOf = (report: Report) => report.readiness.operations.find((o) => o.operation === 'recipes.search')!.judgement;
    const fromFile = gatesOf(await reportFromInputs([file], options));
    const fromClickHouse = gatesOf(await reportFrom(clickHouseSource(target, 'rollout_reports', { stepBucketMs: bucketMs }), options));
    expect(fromFile.step).toBe(25);
    // The step's whole buckets only: 100 api2 answers, none of the partial bucket's 503s.
    expect(fromFile.gates.find((g) => g.gate === 'errorRate' && g.window === 'step')).toMatchObject({ samples: 100, adverse: 0 });
    expect(fromClickHouse.gates).toEqual(fromFile.gates);
    expect(fromClickHouse.state).toBe(fromFile.state);
    expect(fromClickHouse.missing).toEqual(fromFile.missing);
  });

  it('counts each record once when the ingest is retried twice', async () => {
    const lines = generatedLines(3000, 7);
    const file = await writeLog(lines);
    const target = clickHouseTarget(clickHouseUrl());
    for (let attempt = 0; attempt < 2; attempt++) await ingest(target, 'retried', [file]);
    const third = await report(['ingest', '--clickhouse', clickHouseUrl(), '--table', 'retried', file]);
    expect(third.code).toBe(0);
    expect(third.stderr).toMatch(/ingested 3000 records and \d+ shadow lines into retried/);

    const fromFile = await reportFromInputs([file]);
    const fromClickHouse = await reportFrom(clickHouseSource(target, 'retried'));
    expect(fromClickHouse.summary.records).toBe(3000);
    expect(fromClickHouse.summary.shadowLines).toBe(lines.length - 3000);
    expect(comparable(fromClickHouse)).toEqual(comparable(fromFile));
    expect(comparable(await reportFrom(clickHouseSource(target, 'retried', { final: true })))).toEqual(comparable(fromFile));
  }, 300_000);

  it('has a column for every field the writer puts on a request line, and no column the log schema lacks', async () => {
    const target = clickHouseTarget(clickHouseUrl());
    const origin = { instance: 'pod-7', config: 'c0ffee01' };
    const full = logLine(
      {
        id: '5b0e4a0c-3f6e-4c59-9a43-0d6cb1f1e001', requestId: 'r-ddl', traceId: '0af7651916cd43dd8448eb211c80319c', startedAt: 0, method: 'GET', operation: 'recipes.search', pathTemplate: '/x/{n}', form: 'canonical', versionPrefix: 'v1',
        absoluteForm: true, scheme: 'http', insecure: true, jsonBy: 'content-type', mode: 'api2', routeMode: 'canary', stepSince: 1767607000000, fallback: true, cache: 'HIT', status: 200,
        latencyMs: 12.34, upstreamMs: 5.6, bytesIn: 10, bytesOut: 2000, client: 'aaaaaaaaaaaaaaaa', clientLabel: 'ios', clientProgram: 'RecipeBox', user: 'bbbbbbbbbbbbbbbb', params: 'title_kw=soup&pg=2', deprecation: 'deprecation+sunset', error: 'none', traced: 'sampled',
      },
      30,
      Date.parse('2026-01-05T10:00:00Z'),
      origin,
    );
    const written = Object.keys(JSON.parse(full) as object);
    expect(written).toEqual(REQUEST_LINE_FIELDS.map((f) => f.name));

    const file = await writeLog([full]);
    await ingest(target, 'ddl_check', [file]);
    const columns = (await select(target, 'DESCRIBE TABLE ddl_check')).map((row) => String(row[0]));
    expect(columns).toEqual([...written, ...SHADOW_FIELDS.map((f) => f.name), ...BREAKER_FIELDS.map((f) => f.name), ...ROLLOUT_FIELDS.map((f) => f.name)]);

    // Every value the writer wrote is stored as written.
    const [stored] = await select(target, `SELECT ${written.map((name) => `\`${name}\``).join(', ')} FROM ddl_check`);
    const line = JSON.parse(full) as Record<string, unknown>;
    const expected = written.map((name) => (typeof line[name] === 'boolean' ? (line[name] ? 1 : 0) : line[name]));
    expect(stored!.map((value, i) => (typeof expected[i] === 'number' ? Number(value) : value))).toEqual(expected);
  }, 120_000);

  it('skips a malformed line in an ingest, counts it and names its position', async () => {
    const good = generatedLines(10, 3).filter((line) => line.includes('"msg":"request"'));
    const file = await writeLog([good[0]!, '{"msg":"request","time":', good[1]!, 'not json at all', good[2]!]);
    const result = await report(['ingest', '--clickhouse', clickHouseUrl(), '--table', 'malformed', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`skipped ${file}:2: not valid JSON (truncated?)`);
    expect(result.stderr).toContain(`skipped ${file}:4: not a JSON line`);
    expect(result.stderr).toMatch(/ingested 3 records .* 2 malformed lines skipped/);
    const counted = await reportFrom(clickHouseSource(clickHouseTarget(clickHouseUrl()), 'malformed'));
    expect(counted.summary.records).toBe(3);
  }, 120_000);
});

describe('requests whose clients reuse one X-Request-Id', () => {
  it('are as many rows in ClickHouse as lines in the file report: 40 concurrent searches, 40 rows', async () => {
    const sandbox = await startLegacySandbox();
    const log = join(await tempDir(), 'usage.log');
    const gateway = await startTestGateway(sandbox.origin, { observability: { instance: 'gateway-1', log: { destination: log } } });
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, () => send(gateway.origin, { target: '/recipes?any_kw=soup&api_key=sandbox-free-key', headers: { host: 'api.bigoven.com', 'x-request-id': 'one-id' } })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    } finally {
      await gateway.close();
      await sandbox.close();
    }
    const target = clickHouseTarget(clickHouseUrl());
    await ingest(target, 'one_request_id', [log]);
    const fromFile = await reportFromInputs([log]);
    const fromClickHouse = await reportFrom(clickHouseSource(target, 'one_request_id'));
    expect(fromFile.summary.records).toBe(40);
    expect(comparable(fromClickHouse)).toEqual(comparable(fromFile));
    const [[rows, ids, requestIds]] = (await select(target, 'SELECT count(), uniqExact(id), uniqExact(requestId) FROM one_request_id FINAL')) as [[string, string, string]];
    expect([Number(rows), Number(ids), Number(requestIds)]).toEqual([40, 40, 1]);
  }, 120_000);
});

describe('a row ClickHouse refuses', () => {
  it('costs no other line its row: the ingest names it, stores the rest and exits 0', async () => {
    // A table made by hand with a narrower latency column (at most 99.99 ms): the reader accepts
    // 500 ms, ClickHouse refuses it ("Decimal value is too big").
    const target = clickHouseTarget(clickHouseUrl());
    await execute(target, createTableSql('narrow').replace('`latencyMs` Nullable(Decimal(12, 2))', '`latencyMs` Nullable(Decimal(4, 2))'));
    const lines = [10, 20, 500, 30, 40].map((latencyMs, i) => fixtureLine({ time: T0 + i, operation: 'recipes.search', mode: 'legacy', latencyMs }));
    const file = await writeLog(lines);
    const result = await report(['ingest', '--clickhouse', clickHouseUrl(), '--table', 'narrow', file]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`skipped ${file}:3: ClickHouse refused the row: Decimal value is too big`));
    expect(result.stderr).toMatch(/ingested 4 records .* 1 malformed lines skipped/);
    const stored = await select(target, 'SELECT toFloat64(latencyMs) FROM narrow ORDER BY time');
    expect(stored.map((row) => Number(row[0]))).toEqual([10, 20, 30, 40]);
  }, 120_000);
});

describe('the documented table', () => {
  it('is the table generated from the log schema', async () => {
    const doc = await readFile(join(process.cwd(), 'docs', 'analytics-clickhouse.md'), 'utf8');
    expect(doc).toContain(`${createTableSql('usage_log')};`);
  });
});

describe('the report when ClickHouse fails', () => {
  const oneLine = (stderr: string): string[] => stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'));

  it('says in one line that ClickHouse is down, exit code 1', async () => {
    const port = await freePort();
    const result = await report(['--clickhouse', `http://127.0.0.1:${port}/`]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toEqual([`cannot reach ClickHouse at http://127.0.0.1:${port}/: connection refused`]);
  }, 120_000);

  it('fails an ingest in one line when ClickHouse is down, exit code 1', async () => {
    const port = await freePort();
    const file = await writeLog(generatedLines(5, 9));
    const result = await report(['ingest', '--clickhouse', `http://127.0.0.1:${port}/`, file]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toEqual([`cannot reach ClickHouse at http://127.0.0.1:${port}/: connection refused`]);
  }, 120_000);

  it('says in one line that the table is missing, exit code 1', async () => {
    const result = await report(['--clickhouse', clickHouseUrl(), '--table', 'never_filled']);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toEqual([`ClickHouse at ${clickHouseUrl()} has no table default.never_filled: fill it first with npm run report -- ingest --clickhouse URL FILES...`]);
  }, 120_000);

  it('says in one line that ClickHouse is too slow, exit code 1, and never prints the password', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const result = await report(['--clickhouse', `http://reporter:s3cret-pass@127.0.0.1:${port}/`, '--timeout', '1']);
      expect(result.code).toBe(1);
      expect(oneLine(result.stderr)).toEqual([`ClickHouse at http://127.0.0.1:${port}/ did not answer within 1 s`]);
      expect(result.stderr + result.stdout).not.toContain('s3cret');
    } finally {
      silent.close();
    }
  }, 120_000);
});

/**
 * The report says which clients were told of the deprecation and since when: two labelled clients
 * drive a real gateway in front of the sandbox while the signal is off, then on for the search
 * (hot reload), then with a sunset for every operation; the usage lines say which answers carried
 * it, and the report read from the log file and from ClickHouse (the log ingested) names the one
 * client told, its first signalled line's time, the signals it got and how many answers, in text,
 * JSON and HTML alike.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { clientHashLines } from '../src/report/client-hash.js';
import { nodeHmacSha256 } from '../src/request/hmac-node.js';
import { renderHtml } from '../src/report/render-html.js';
import { renderText } from '../src/report/render-text.js';
import { reportFrom, reportFromInputs } from '../src/report/run.js';
import { clickHouseSource } from '../src/report/sources/clickhouse.js';
import { ingest } from '../src/report/sources/clickhouse-ingest.js';
import { clickHouseTarget } from '../src/report/sources/clickhouse-http.js';
import type { Report } from '../src/report/types.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { clickHouseForThisFile, comparable } from './support/clickhouse-for-this-file.js';
import { startTestGateway } from './support/gateway.js';
import { send } from './support/http.js';
import { tempDir } from './support/log-fixtures.js';

const HASH_KEY = 'told-report-hash-key-0123456789';
const labels = (key: string, label: string): Record<string, string> => JSON.parse(`{${clientHashLines(nodeHmacSha256, HASH_KEY, [key], label).join('').replace(/,$/, '')}}`) as Record<string, string>;
const WEB_SHOP = labels('sandbox-free-key', 'web-shop');
const PARTNER = labels('sandbox-paid-key', 'partner-app');
const clickHouseUrl = clickHouseForThisFile();

let legacy: StartedLegacySandbox;
let log: string;
let lines: Array<Record<string, unknown>>;

async function search(origin: string, key: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const response = await send(origin, { target: `/recipes?title_kw=soup&pg=${i + 1}&api_key=${key}`, headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
  }
}

beforeAll(async () => {
  legacy = await startLegacySandbox();
  log = join(await tempDir(), 'usage.log');
  const input: GatewayConfigInput = {
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: { legacy: { baseUrl: legacy.origin } },
    legacyHosts: ['api.bigoven.com'],
    observability: { hashKey: HASH_KEY, clientLabels: { ...WEB_SHOP, ...PARTNER }, log: { destination: log } },
  };
  const reloaded = (deprecation: GatewayConfigInput['deprecation']) => {
    const parsed = parseConfig({ ...input, deprecation });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    return parsed.config;
  };
  const gateway = await startTestGateway(legacy.origin, { observability: input.observability });
  await search(gateway.origin, 'sandbox-free-key', 2);
  await search(gateway.origin, 'sandbox-paid-key', 2);
  await gateway.running.reload(reloaded({ operations: { 'recipes.search': { deprecatedAt: '2026-12-01' } } }));
  await search(gateway.origin, 'sandbox-free-key', 3);
  await gateway.running.reload(reloaded({ everyOperation: { sunsetAt: '2027-06-30' }, operations: { 'recipes.search': { deprecatedAt: '2026-12-01' } } }));
  await search(gateway.origin, 'sandbox-free-key', 1);
  await gateway.close();
  lines = (await readFile(log, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['msg'] === 'request');
}, 60_000);

afterAll(async () => {
  await legacy?.close();
});

function expectTold(report: Report): void {
  const told = lines.filter((line) => line['deprecation'] !== undefined);
  expect(told.map((line) => [line['clientLabel'], line['deprecation']])).toEqual([
    ['web-shop', 'deprecation'],
    ['web-shop', 'deprecation'],
    ['web-shop', 'deprecation'],
    ['web-shop', 'deprecation+sunset'],
  ]);
  expect(report.told).toEqual([
    {
      client: Object.keys(WEB_SHOP)[0],
      label: 'web-shop',
      since: new Date(Math.min(...told.map((line) => line['time'] as number))).toISOString(),
      signals: ['deprecation', 'deprecation+sunset'],
      requests: 4,
    },
  ]);
}

describe('the report says which clients were told of the deprecation, and since when', () => {
  it('from the usage log file, in JSON, text and HTML', async () => {
    const report = await reportFromInputs([log]);
    expectTold(report);
    const since = report.told[0]!.since;
    expect(renderText(report)).toContain(`web-shop (${Object.keys(WEB_SHOP)[0]}): since ${since}, deprecation, deprecation+sunset (4 answers)`);
    expect(renderText(report)).not.toMatch(/partner-app \(\w+\): since/);
    expect(renderHtml(report)).toMatch(new RegExp(`<table id="told">.*<td data-field="since">${since}</td>`, 's'));
  });

  it('from ClickHouse, the same', async () => {
    const target = clickHouseTarget(clickHouseUrl());
    await ingest(target, 'told_report', [log]);
    const fromClickHouse = await reportFrom(clickHouseSource(target, 'told_report'));
    expectTold(fromClickHouse);
    expect(comparable(fromClickHouse).told).toEqual(comparable(await reportFromInputs([log])).told);
  }, 120_000);
});

/**
 * Done when (issue 37): one gateway drives a rollout to the end on one operation
 * (recipes.search, its api2 Title difference ignored), holds another whose api2 answers differ
 * (favorites.list: the api2 front changes every Title), has a third rolled back by an operator
 * (grocery.list), and leaves the rest without a plan (trysoons.list on legacy; favorites.create
 * cannot move). The console in Chromium, /admin/rollout, /admin/traffic, /metrics and the
 * migration report, from the usage-log file and from ClickHouse, give every operation the same
 * state (src/migration/judgement/); and they show the differences you can read: the legacy value
 * beside the api2 value of favorites.list's differing Title (console, /admin/traffic, both reports).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../src/catalogue/operations.js';
import { reportFrom, reportFromInputs } from '../src/report/run.js';
import { clickHouseSource } from '../src/report/sources/clickhouse.js';
import { ingest } from '../src/report/sources/clickhouse-ingest.js';
import { clickHouseTarget } from '../src/report/sources/clickhouse-http.js';
import type { Report } from '../src/report/types.js';
import type { Api2Front } from './support/api2-front.js';
import { openChromiumPage } from './support/chromium.js';
import { closedAfterAllTests } from './support/cleanup.js';
import { clickHouseForThisFile } from './support/clickhouse-for-this-file.js';
import type { TestGateway } from './support/gateway.js';
import { basic, send } from './support/http.js';
import { PLAN, TOKEN, snapshot, startRolloutRig, traffic, until } from './support/rollout.js';

const cleanup = closedAfterAllTests(60_000);
const clickHouseUrl = clickHouseForThisFile();
const auth = { authorization: `Bearer ${TOKEN}` };
let gateway: TestGateway;
let front: Api2Front;
let logFile: string;
let page: Page;

const at = (operation: string) => snapshot(gateway).operations.find((o) => o.operation === operation)?.state?.at;
// A repeated identical failure is one event with its count (src/migration/rollout/repeats.ts): the evaluations it stands for.
const heldFailures = () => snapshot(gateway).events.filter((e) => e.operation === 'favorites.list' && e.kind === 'gate-failed' && e.from === 'shadow' && e.to === 'shadow').reduce((sum, e) => sum + (e.count ?? 1), 0);

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'one-state-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  logFile = join(dir, 'usage.log');
  ({ gateway, front } = await startRolloutRig(cleanup, {
    routes: {
      'recipes.search': { shadow: { ignore: ['Results[].Title'] }, rollout: PLAN },
      'favorites.list': { rollout: { ...PLAN, steps: ['shadow', 100] } },
      'grocery.list': { rollout: { ...PLAN, steps: ['shadow', 100] } },
    },
    observability: { admin: { bearerToken: TOKEN }, log: { destination: logFile } },
  }));
  front.mode = 'differ';
  page = await openChromiumPage(cleanup, auth);
}, 120_000);

/** favorites.list as alice, `loops` at a time, until stopped. */
function favorites(loops = 2): { stop(): Promise<void> } {
  let running = true;
  const loop = async (): Promise<void> => {
    while (running) await send(gateway.origin, { target: '/favorites?api_key=sandbox-free-key', headers: { accept: 'application/json', authorization: basic('alice', 'alice-pass') } }).catch(() => undefined);
  };
  const all = Array.from({ length: loops }, loop);
  return {
    async stop() {
      running = false;
      await Promise.all(all);
    },
  };
}

describe('one state per operation, in every view', () => {
  it('is the same in the console, /admin/rollout, /admin/traffic, /metrics and the report from files and from ClickHouse', async () => {
    const searches = traffic([gateway]);
    const lists = favorites();
    try {
      await until('recipes.search at 100 %', () => at('recipes.search') === 100, 60_000);
      await until('favorites.list held three times', () => heldFailures() >= 3, 30_000);
    } finally {
      await searches.stop();
      await lists.stop();
    }
    const rollback = await send(gateway.origin, { method: 'POST', target: '/admin/rollout/grocery.list/rollback', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ by: 'carol', reason: 'partner asked' }) });
    expect(rollback.status).toBe(200);

    const expected = { 'recipes.search': 'done', 'favorites.list': 'held', 'grocery.list': 'rolled-back', 'trysoons.list': 'no-evidence', 'favorites.create': 'cannot-move' };

    expect((await page.goto(`${gateway.origin}/admin`))?.status()).toBe(200);
    const consoleStates: Record<string, string | null> = {};
    for (const id of OPERATION_IDS) consoleStates[id] = await page.getAttribute(`#operations tr[data-operation="${id}"] [data-field="state"]`, 'data-value');
    expect(consoleStates).toMatchObject(expected);
    expect(await page.textContent('#rollout-moves')).toMatch(/held by shadowAgreement since (just now|\d+ s ago|\d+ min ago) \(\d+ evaluations\)/);

    const example = page.locator('#differences tr[data-operation="favorites.list"]').first();
    expect(await example.getAttribute('data-path')).toMatch(/Title$/);
    const [legacyValue, api2Value] = [await example.locator('[data-field="legacy"]').textContent(), await example.locator('[data-field="api2"]').textContent()];
    expect(api2Value).toBe(`${legacyValue!.slice(0, -1)} (changed)"`);

    const rollout = (await send(gateway.origin, { target: '/admin/rollout', headers: auth })).json() as { operations: Array<{ operation: string; judgement: { state: string } }> };
    const rolloutStates = Object.fromEntries(rollout.operations.map((o) => [o.operation, o.judgement.state]));
    expect(rolloutStates).toEqual({ 'recipes.search': 'done', 'favorites.list': 'held', 'grocery.list': 'rolled-back' });

    const trafficView = (await send(gateway.origin, { target: '/admin/traffic', headers: auth })).json() as {
      routes: Record<string, { state: string; mode: string }>;
      shadow: { operations: Array<{ operation: string; examples: Array<{ path: string; legacy: string; api2: string }> }> };
    };
    const trafficExamples = trafficView.shadow.operations.find((o) => o.operation === 'favorites.list')?.examples ?? [];
    expect(trafficExamples.length).toBeGreaterThan(0);
    expect(trafficExamples.every((e) => e.api2.endsWith(' (changed)"') && e.legacy !== e.api2)).toBe(true);
    const trafficStates = Object.fromEntries(Object.entries(trafficView.routes).map(([id, route]) => [id, route.state]));
    expect(trafficView.routes['recipes.search']?.mode).toBe('api2');
    expect(trafficView.routes['grocery.list']?.mode).toBe('legacy');

    const metrics = (await send(gateway.origin, { target: '/metrics', headers: auth })).text();
    const metricStates = Object.fromEntries([...metrics.matchAll(/^gateway_operation_state\{operation="([^"]+)",state="([^"]+)"\} 1$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(metrics).toContain('gateway_route_mode{operation="recipes.search",mode="api2"} 1');

    await gateway.close(); // the usage log is written out
    const statesOf = (report: Report) => Object.fromEntries(report.readiness.operations.filter((o) => o.operation !== 'uncatalogued').map((o) => [o.operation, o.judgement.state]));
    const fileReport = await reportFromInputs([logFile]);
    const fromFile = statesOf(fileReport);
    const target = clickHouseTarget(clickHouseUrl());
    expect((await ingest(target, 'one_state', [logFile])).brokenCount).toBe(0);
    const clickHouseReport = await reportFrom(clickHouseSource(target, 'one_state'));
    const fromClickHouse = statesOf(clickHouseReport);
    const reportExamples = fileReport.operations.find((o) => o.operation === 'favorites.list')!.shadow.examples;
    expect(reportExamples.length).toBeGreaterThan(0);
    expect(reportExamples.every((e) => e.api2.endsWith(' (changed)"'))).toBe(true);
    expect(clickHouseReport.operations.find((o) => o.operation === 'favorites.list')!.shadow.examples).toEqual(reportExamples);

    expect(consoleStates).toMatchObject(expected);
    for (const states of [trafficStates, metricStates, fromFile, fromClickHouse]) expect(states).toEqual(consoleStates);
  }, 180_000);
});

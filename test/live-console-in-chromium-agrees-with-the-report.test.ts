/**
 * The live console on the admin listener, in a real browser (Debian's chromium through
 * playwright-core, JavaScript off): the page loads, says it shows one replica, lists the 16
 * operations with their routing, and its numbers move after traffic by its own meta refresh. On
 * the same traffic, the migration report read from the usage log gives every operation the same
 * state, detail and next action (the one judgement, src/migration/judgement/). The console sits behind the admin token like every admin view. A
 * screenshot is kept in artifacts/.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportFromInputs } from '../src/report/run.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import { PLACEHOLDER_PHOTO_URL } from '../src/sandbox/dataset/dataset.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { openChromiumPage } from './support/chromium.js';
import { basic, send } from './support/http.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { closedAfterAllTests } from './support/cleanup.js';

const SCREENSHOT = join(process.cwd(), 'artifacts', 'live-console.png');
const J = { accept: 'application/json' };
const FREE = 'sandbox-free-key';
const ALICE = basic('alice', 'alice-pass');
const cleanup = closedAfterAllTests(60_000);
let gateway: TestGateway;
let logFile: string;
let page: Page;

beforeAll(async () => {
  const api2 = await startApi2Sandbox();
  const legacy = await startLegacySandbox();
  cleanup.push(() => api2.close(), () => legacy.close());
  const dir = await mkdtemp(join(tmpdir(), 'live-console-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  logFile = join(dir, 'usage.log');
  gateway = await startTestGateway(legacy.origin, {
    upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
    cache: { enabled: false },
    routes: {
      'grocery.list': { mode: 'api2' },
      'reviews.delete': { mode: 'api2' },
      'recipes.search': { mode: 'shadow', shadow: { sampleRate: 1, ignore: [] } },
      'trysoons.list': { mode: 'canary', canaryPercent: 25 },
    },
    observability: { log: { destination: logFile }, admin: { listen: { host: '127.0.0.1', port: 0 } } },
  });
  cleanup.push(() => gateway.close());
  page = await openChromiumPage(cleanup);
}, 60_000);


const value = (operation: string, field: string) => page.getAttribute(`#operations tr[data-operation="${operation}"] [data-field="${field}"]`, 'data-value');

async function traffic(): Promise<void> {
  for (let i = 0; i < 110; i++) expect((await send(gateway.origin, { target: `/grocerylist?api_key=${FREE}`, headers: { ...J, authorization: ALICE } })).status).toBe(200);
  expect((await send(gateway.origin, { method: 'DELETE', target: `/review/777777?api_key=${FREE}`, headers: { ...J, authorization: ALICE } })).status).toBe(409);
  for (let i = 0; i < 10; i++) await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J });
  await send(gateway.origin, { method: 'POST', target: `/favorites?api_key=${FREE}&recipeId=1`, headers: { ...J, authorization: ALICE } });
  // The shadow comparisons end after the answers: wait for them.
  const deadline = Date.now() + 15_000;
  while (gateway.shadows.length < 10 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(gateway.shadows).toHaveLength(10);
}

describe('the live console', () => {
  it('loads without JavaScript: one replica, the 16 operations with their routing, the headline of states', async () => {
    expect(gateway.adminOrigin).toBeDefined();
    const res = await page.goto(`${gateway.adminOrigin}/`);
    expect(res?.status()).toBe(200);
    expect(page.url()).toBe(`${gateway.adminOrigin}/admin`);
    expect(await page.getAttribute('#scope', 'data-scope')).toBe('replica');
    expect(await page.textContent('#scope')).toContain('this replica only');
    expect(await page.locator('#operations tbody tr').count()).toBe(16);
    expect(await value('grocery.list', 'mode')).toBe('api2');
    expect(await value('trysoons.list', 'canaryPercent')).toBe('25');
    expect(await value('recipes.search', 'shadowSampleRate')).toBe('1');
    expect(await value('favorites.create', 'state')).toBe('cannot-move');
    expect(await value('grocery.list', 'api2Requests')).toBe('0');
    expect(await page.textContent('#headline')).toBe('16 operations: 12 no evidence yet, 4 cannot move');
    expect(await page.getAttribute('meta[http-equiv="refresh"]', 'content')).toBe('5');
  });

  it('moves its numbers after traffic, by its own refresh', async () => {
    await traffic();
    // The meta refresh, at most 5 s later (a refresh that began during the traffic may load first).
    for (let load = 0; load < 3 && (await value('grocery.list', 'api2Requests')) !== '110'; load++) await page.waitForEvent('load', { timeout: 15_000 });
    expect(await value('grocery.list', 'api2Requests')).toBe('110');
    expect(await value('grocery.list', 'state')).toBe('collecting');
    expect(await value('reviews.delete', 'api24xx')).toBe('1');
    expect(await value('recipes.search', 'legacyRequests')).toBe('10');
    expect(await page.getAttribute('#operations tr[data-operation="recipes.search"] [data-field="shadowAgreement"]', 'data-compared')).not.toBe('0');
    expect(await page.textContent('#headline')).toBe('16 operations: 3 collecting evidence, 9 no evidence yet, 4 cannot move');
    expect(await page.locator('#clients tbody tr').count()).toBeGreaterThan(0);
    await mkdir(join(process.cwd(), 'artifacts'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it('gives every operation the state, detail and next action the report gives on the same traffic', async () => {
    await page.reload();
    const consoleStates: Record<string, { state: string | null; detail: string | null; next: string | null }> = {};
    for (const row of await page.locator('#operations tbody tr').all()) {
      const operation = (await row.getAttribute('data-operation'))!;
      consoleStates[operation] = {
        state: await row.locator('[data-field="state"]').getAttribute('data-value'),
        detail: await row.locator('[data-field="detail"]').textContent(),
        next: await row.locator('[data-field="next"]').textContent(),
      };
    }
    await gateway.close(); // the usage log is written out
    const report = await reportFromInputs([logFile]);
    // The state of every operation; its detail and next action too where the log saw it (the log cannot tell an unseen route's configured mode).
    const seen = (operation: string) => report.operations.some((op) => op.operation === operation);
    const reportStates = Object.fromEntries(report.readiness.operations.map(({ operation, judgement }) => [operation, seen(operation) ? { state: judgement.state, detail: judgement.detail, next: judgement.next } : { state: judgement.state }]));
    expect(Object.fromEntries(Object.entries(consoleStates).map(([operation, v]) => [operation, seen(operation) ? v : { state: v.state }]))).toEqual(reportStates);
    expect(new Set(Object.values(reportStates).map((v) => v.state))).toEqual(new Set(['collecting', 'no-evidence', 'cannot-move']));
  });

  it('is behind the admin token like every admin view', async () => {
    const legacy = await startLegacySandbox();
    cleanup.push(() => legacy.close());
    const guarded = await startTestGateway(legacy.origin, { observability: { admin: { bearerToken: 'console-test-token-1234567890', listen: { host: '127.0.0.1', port: 0 } } } });
    cleanup.push(() => guarded.close());
    expect((await send(guarded.adminOrigin!, { target: '/admin' })).status).toBe(401);
    const allowed = await send(guarded.adminOrigin!, { target: '/admin', headers: { authorization: 'Bearer console-test-token-1234567890' } });
    expect(allowed.status).toBe(200);
    expect(allowed.text()).toContain('Migration console');
  });
});

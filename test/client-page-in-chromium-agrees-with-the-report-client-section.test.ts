/**
 * Issue 40 item 2: a client's page in the console (in Chromium, JavaScript off) and the report's
 * section for that client (the report command, with --config) say the same on the same traffic,
 * driven through a real gateway by two labelled sandbox clients in three client programs: the
 * operations it called, the side that answered each and its 4xx and 5xx, the declared losses of the
 * operation api2 answered it (its cohort step), its programs, and the plan that holds or names it
 * (and whether the rollout has reached that step).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mappingFor } from '../src/catalogue/movability.js';
import { nodeHmacSha256 } from '../src/request/hmac-node.js';
import { hashClient } from '../src/request/identity.js';
import { reportFromInputs } from '../src/report/run.js';
import type { ClientSection, Report } from '../src/report/types.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import { PLACEHOLDER_PHOTO_URL } from '../src/sandbox/dataset/dataset.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { openChromiumPage } from './support/chromium.js';
import { closedAfterAllTests } from './support/cleanup.js';
import { send } from './support/http.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { runTsxScript } from './support/run-script.js';

const HASH_KEY = 'client-page-test-hash-key-0123456789';
const TEAM = hashClient(nodeHmacSha256, HASH_KEY, 'sandbox-free-key');
const PARTNER = hashClient(nodeHmacSha256, HASH_KEY, 'sandbox-paid-key');
const UA = { box: 'RecipeBox/4.2.1 (iPhone; iOS 12.4; Scale/2.00)', pal: 'CookingPal/2.8.0 (Linux; U; Android 9)', planner: 'MealPlanner.NET/1.3 (Windows NT 6.1)' };
const cleanup = closedAfterAllTests(60_000);
let gateway: TestGateway;
let dir: string;
let logFile: string;
let page: Page;

const routes = {
  'recipes.search': {
    rollout: {
      steps: [{ clients: ['team-app'] }, 100],
      hold: ['partner-x'],
      minStepMs: 3_600_000,
      gates: { errorRate: { maxExcess: 0.2 } },
    },
  },
  'grocery.list': { mode: 'api2' as const },
};

beforeAll(async () => {
  const api2 = await startApi2Sandbox();
  const legacy = await startLegacySandbox();
  cleanup.push(() => api2.close(), () => legacy.close());
  dir = await mkdtemp(join(tmpdir(), 'client-page-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  logFile = join(dir, 'usage.log');
  const upstreams = { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } };
  const observability = { hashKey: HASH_KEY, clientLabels: { [TEAM]: 'team-app', [PARTNER]: 'partner-x' } };
  gateway = await startTestGateway(legacy.origin, {
    upstreams,
    api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
    cache: { enabled: false },
    routes,
    observability: { ...observability, log: { destination: logFile }, admin: { listen: { host: '127.0.0.1', port: 0 } } },
  });
  cleanup.push(() => gateway.close());
  await writeFile(join(dir, 'config.json'), JSON.stringify({ upstreams, api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL }, routes, observability }));
  page = await openChromiumPage(cleanup);
}, 60_000);

async function search(apiKey: string, userAgent: string): Promise<void> {
  expect((await send(gateway.origin, { target: `/recipes?title_kw=soup&rpp=2&api_key=${apiKey}`, headers: { accept: 'application/json', 'user-agent': userAgent } })).status).toBe(200);
}

async function traffic(): Promise<number> {
  for (let i = 0; i < 5; i++) await search('sandbox-free-key', UA.box);
  for (let i = 0; i < 3; i++) await search('sandbox-free-key', UA.pal);
  // One refused by the gateway's own check (rpp at most 50): a 4xx of the side `gateway`.
  expect((await send(gateway.origin, { target: '/recipes?title_kw=soup&rpp=500&api_key=sandbox-free-key', headers: { accept: 'application/json', 'user-agent': UA.box } })).status).toBe(400);
  for (let i = 0; i < 4; i++) await search('sandbox-paid-key', UA.planner);
  const alice = `Basic ${Buffer.from('alice:alice-pass').toString('base64')}`;
  for (let i = 0; i < 2; i++) expect((await send(gateway.origin, { target: '/grocerylist?api_key=sandbox-paid-key', headers: { accept: 'application/json', authorization: alice } })).status).toBe(200);
  // Without a User-Agent at all.
  expect((await send(gateway.origin, { target: '/recipes?title_kw=cake&api_key=sandbox-free-key', headers: { accept: 'application/json' } })).status).toBe(200);
  return 16;
}

/** The section as the page shows it, read from its data attributes. */
async function pageSection(): Promise<Shown> {
  const section = page.locator('section.client-section');
  const operations = [];
  for (const row of await section.locator('table.client-operations tbody tr').all()) {
    const sides = [];
    for (const side of ['legacy', 'api2', 'fallback', 'gateway']) {
      const answers = Number(await row.locator(`[data-side="${side}"][data-field="answers"]`).getAttribute('data-value'));
      const count = async (field: string) => Number(await row.locator(`[data-side="${side}"][data-field="${field}"]`).getAttribute('data-value'));
      if (answers > 0) sides.push({ side, answers, status4xx: await count('status4xx'), status5xx: await count('status5xx') });
    }
    operations.push({ operation: (await row.getAttribute('data-operation'))!, requests: Number(await row.locator('[data-field="requests"]').getAttribute('data-value')), sides });
  }
  const losses = await section.locator('ul.losses li[data-field]').evaluateAll((items) => items.map((li) => ({ operation: li.getAttribute('data-operation'), field: li.getAttribute('data-field') })));
  const programs = await section.locator('ul.programs li').evaluateAll((items) => items.map((li) => ({ program: li.getAttribute('data-program'), requests: Number(li.getAttribute('data-value')) })));
  const standing = section.locator('.standing');
  return {
    client: (await section.getAttribute('data-client'))!,
    requests: Number(await section.locator('[data-field="requests"]').first().getAttribute('data-value')),
    operations,
    losses: losses as Shown['losses'],
    programs: programs as ClientSection['programs'],
    held: (await standing.getAttribute('data-held'))!,
    cohorts: (await standing.getAttribute('data-cohorts'))!,
  };
}

type Shown = ReturnType<typeof asShown>;

const asShown = (c: ClientSection) => ({
  client: c.client,
  requests: c.requests,
  operations: c.operations,
  losses: c.losses.map((l) => ({ operation: l.operation, field: l.field })),
  programs: c.programs,
  held: c.standing!.held.join(' '),
  cohorts: c.standing!.cohorts.map((s) => `${s.operation}:${s.step}:${s.reached === null ? 'unknown' : s.reached ? 'reached' : 'waiting'}`).join(' '),
});

describe("a client's page and the report's client section", () => {
  it('say the same for each client on the same traffic, and what that traffic was', async () => {
    const sent = await traffic();
    // The usage log is written asynchronously: wait for every line.
    const deadline = Date.now() + 15_000;
    while ((await reportFromInputs([logFile])).summary.records < sent && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));

    const run = await runTsxScript('src/cli/report.ts', ['--json', '--config', join(dir, 'config.json'), logFile], 60_000);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    const section = (id: string) => report.clientSections.find((c) => c.client === id)!;

    // What was sent: the team's client on api2 (its cohort), in two programs and one without a User-Agent; the partner held on legacy.
    const searchLosses = (mappingFor('recipes.search')?.losses ?? []).map((l) => ({ operation: 'recipes.search', field: l.field }));
    expect(searchLosses.length).toBeGreaterThan(0);
    expect(asShown(section(TEAM))).toEqual({
      client: TEAM,
      requests: 10,
      operations: [{ operation: 'recipes.search', requests: 10, sides: [{ side: 'api2', answers: 9, status4xx: 0, status5xx: 0 }, { side: 'gateway', answers: 1, status4xx: 1, status5xx: 0 }] }],
      losses: searchLosses,
      programs: [{ program: 'RecipeBox', requests: 6 }, { program: 'CookingPal', requests: 3 }, { program: '(no User-Agent)', requests: 1 }],
      held: '',
      cohorts: 'recipes.search:1:reached',
    });
    const grocery = (mappingFor('grocery.list')?.losses ?? []).map((l) => ({ operation: 'grocery.list', field: l.field }));
    expect(asShown(section(PARTNER))).toEqual({
      client: PARTNER,
      requests: 6,
      operations: [
        { operation: 'recipes.search', requests: 4, sides: [{ side: 'legacy', answers: 4, status4xx: 0, status5xx: 0 }] },
        { operation: 'grocery.list', requests: 2, sides: [{ side: 'api2', answers: 2, status4xx: 0, status5xx: 0 }] },
      ],
      losses: grocery,
      programs: [{ program: 'MealPlanner.NET', requests: 4 }, { program: '(no User-Agent)', requests: 2 }],
      held: 'recipes.search',
      cohorts: '',
    });

    // The console: from its front page to the client list, to each client's page.
    await page.goto(`${gateway.adminOrigin}/admin`);
    await page.click('#every-client');
    expect(page.url()).toBe(`${gateway.adminOrigin}/admin/clients`);
    expect(await page.locator('#client-list tbody tr').count()).toBe(2);
    for (const client of [TEAM, PARTNER]) {
      await page.goto(`${gateway.adminOrigin}/admin/clients`);
      await page.click(`#client-list tr[data-client="${client}"] a`);
      expect(await pageSection()).toEqual(asShown(section(client)));
    }
    // A label finds its client too.
    await page.goto(`${gateway.adminOrigin}/admin/clients/partner-x`);
    expect(await page.locator('section.client-section').getAttribute('data-client')).toBe(PARTNER);
  }, 120_000);
});

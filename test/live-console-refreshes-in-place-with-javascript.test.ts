/**
 * The console with JavaScript on (issue 46, "refreshes in place with it"): its numbers move after
 * traffic without the page being loaded again (a value set on the window stays, no load event), an
 * opened section stays open; without JavaScript the meta refresh does it (the live-console test).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import { PLACEHOLDER_PHOTO_URL } from '../src/sandbox/dataset/dataset.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { openChromiumPage } from './support/chromium.js';
import { closedAfterAllTests } from './support/cleanup.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { basic, send } from './support/http.js';
import { waitFor } from './support/wait.js';

const cleanup = closedAfterAllTests(60_000);
let gateway: TestGateway;
let page: Page;

beforeAll(async () => {
  const api2 = await startApi2Sandbox();
  const legacy = await startLegacySandbox();
  cleanup.push(() => api2.close(), () => legacy.close());
  gateway = await startTestGateway(legacy.origin, {
    upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
    cache: { enabled: false },
    routes: { 'grocery.list': { mode: 'api2' } },
    observability: { admin: { listen: { host: '127.0.0.1', port: 0 } } },
  });
  cleanup.push(() => gateway.close());
  page = await openChromiumPage(cleanup, {}, true);
}, 60_000);

const requests = () => page.getAttribute('#overview tr[data-operation="grocery.list"] [data-field="requests"]', 'data-value');

describe('the console with JavaScript', () => {
  it('moves its numbers in place, without loading the page again', async () => {
    expect((await page.goto(`${gateway.adminOrigin}/admin`))?.status()).toBe(200);
    expect(await requests()).toBe('0');
    let loads = 0;
    page.on('load', () => loads++);
    await page.evaluate(() => {
      (window as unknown as { kept: string }).kept = 'this page';
      (document.getElementById('figures') as HTMLDetailsElement).open = true;
    });
    for (let i = 0; i < 7; i++) expect((await send(gateway.origin, { target: '/grocerylist?api_key=sandbox-free-key', headers: { accept: 'application/json', authorization: basic('alice', 'alice-pass') } })).status).toBe(200);
    await waitFor(async () => (await requests()) === '7', 15_000, 'the count in place');
    expect(loads).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { kept?: string }).kept)).toBe('this page');
    expect(await page.evaluate(() => (document.getElementById('figures') as HTMLDetailsElement).open)).toBe(true);
    expect(await page.getAttribute('#operations tr[data-operation="grocery.list"] [data-field="api2Requests"]', 'data-value')).toBe('7');
  }, 40_000);
});

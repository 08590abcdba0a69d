/**
 * The HTML report in a real browser (Debian's chromium, driven by playwright-core): it opens from
 * a file with every network request refused, its three charts and the shadow agreement bars are
 * drawn, and the numbers on the page are those of `--json` for the same log (the report scenario
 * and the traffic-control scenario with shadow comparisons and fallbacks). A screenshot is kept
 * in artifacts/.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../src/report/types.js';
import { logLine, scenarioLines, shadowScenarioLines, T0, writeLog } from './support/log-fixtures.js';
import { nodeArgsOf } from './support/entry.js';

const run = promisify(execFile);
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = join(process.cwd(), 'artifacts', 'report-html.png');

let report: Report;
let htmlFile: string;
let profile: string;
let context: BrowserContext;
let page: Page;
const outside: string[] = [];

/** Values a client controls (the request path, its label), crafted to break out of HTML and SVG. */
const HOSTILE_TEMPLATE = `/recipe/"><script>document.title='pwned'</script></svg><img id="injected-template" src=x onerror="document.title='pwned'">'{n}`;
const HOSTILE_CLIENT = `c0ffee"><b id="injected-client">`;
const HOSTILE_LABEL = `</text></svg><b id="injected-label">label</b>'"&`;
function hostileLines(): string[] {
  return Array.from({ length: 3 }, (_, k) =>
    logLine({ time: T0 + (3000 + k) * 1000, operation: 'uncatalogued', pathTemplate: HOSTILE_TEMPLATE, mode: 'legacy', latencyMs: 2, client: HOSTILE_CLIENT, clientLabel: HOSTILE_LABEL }),
  );
}

beforeAll(async () => {
  const log = await writeLog([...scenarioLines(), ...shadowScenarioLines(), ...hostileLines()]);
  htmlFile = join(await mkdtemp(join(tmpdir(), 'report-html-')), 'report.html');
  const node = process.execPath;
  const { stdout } = await run(node, [...nodeArgsOf('src/cli/report.ts'), '--json', '--html', htmlFile, log]);
  report = JSON.parse(stdout) as Report;

  profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  page = await context.newPage();
  await page.goto(pathToFileURL(htmlFile).href);
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

async function attributes(selector: string, names: readonly string[]): Promise<Array<Record<string, string>>> {
  return page.$$eval(
    selector,
    (elements, wanted) => elements.map((el) => Object.fromEntries(wanted.map((name) => [name, el.getAttribute(name) ?? '']))),
    names,
  );
}

describe('HTML report in a browser', () => {
  it('opens without any network access', async () => {
    expect(await page.title()).toBe('Migration report');
    expect(outside).toEqual([]);
    const html = await readFile(htmlFile, 'utf8');
    expect(html).not.toMatch(/<script|<link|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('draws the share of traffic per mode per operation, as in the JSON', async () => {
    const segments = await attributes('#chart-mode-share rect.share-segment', ['data-operation', 'data-mode', 'data-requests', 'width']);
    const expected = report.operations.flatMap((op) => op.modes.map((m) => ({ operation: op.operation, mode: m.mode, requests: m.requests })));
    expect(segments.map((s) => ({ operation: s['data-operation'], mode: s['data-mode'], requests: Number(s['data-requests']) }))).toEqual(expected);
    for (const segment of segments) expect(Number(segment['width'])).toBeGreaterThan(0);
    const box = await page.locator('#chart-mode-share').boundingBox();
    expect(box?.width).toBeGreaterThan(300);
    expect(box?.height).toBeGreaterThan(100);
  });

  it('draws requests over time: every request of the JSON timeline is in a bar', async () => {
    const bars = await attributes('#chart-timeline rect.timeline-segment', ['data-start', 'data-mode', 'data-count', 'height']);
    const expected = report.timeline.buckets.flatMap((b) =>
      report.timeline.modes.filter((m) => (b.modes[m] ?? 0) > 0).map((m) => ({ start: b.start, mode: m, count: b.modes[m] })),
    );
    expect(bars.map((b) => ({ start: b['data-start'], mode: b['data-mode'], count: Number(b['data-count']) }))).toEqual(expected);
    expect(bars.reduce((sum, b) => sum + Number(b['data-count']), 0)).toBe(report.summary.records);
    for (const bar of bars) expect(Number(bar['height'])).toBeGreaterThan(0);
  });

  it('draws the top clients by remaining legacy use, as in the JSON', async () => {
    const bars = await attributes('#chart-top-clients rect.client-bar', ['data-client', 'data-legacy', 'width']);
    expect(bars.map((b) => [b['data-client'], Number(b['data-legacy'])])).toEqual(
      report.clients.filter((c) => c.legacyRequests > 0).map((c) => [c.client, c.legacyRequests]),
    );
    expect(Number(bars[0]?.['width'])).toBeGreaterThan(Number(bars[1]?.['width']));
    const box = await page.locator('#chart-top-clients').boundingBox();
    expect(box?.width, 'the top-clients chart is laid out').toBeGreaterThan(300);
    expect(box?.height).toBeGreaterThan(50);
  });

  it('shows the numbers of the JSON output in its tables', async () => {
    expect(await page.getAttribute('#summary [data-field="records"]', 'data-value')).toBe(String(report.summary.records));
    for (const op of report.operations) {
      const row = page.locator(`#operations tr[data-operation="${op.operation}"]`);
      const value = (field: string) => row.locator(`[data-field="${field}"]`).getAttribute('data-value');
      expect(await value('requests')).toBe(String(op.requests));
      expect(await value('clients')).toBe(String(op.clients));
      expect(await value('errorRate')).toBe(String(op.errorRate));
      expect(await value('p50Ms')).toBe(String(op.p50Ms));
      expect(await value('p95Ms')).toBe(String(op.p95Ms));
      expect(await value('malformed')).toBe(String(op.malformed.requests));
      expect(await value('plainHttp')).toBe(String(op.plainHttp.requests));
      expect(await value('cacheHitRate')).toBe(op.cache.hitRate === null ? '' : String(op.cache.hitRate));
      expect(await value('fallbacks')).toBe(String(op.fallbacks.requests));
      expect(await value('shadowAgreement')).toBe(op.shadow.agreement === null ? '' : String(op.shadow.agreement));
      const state = page.locator(`#readiness tr[data-operation="${op.operation}"] [data-field="state"]`);
      expect(await state.getAttribute('data-value')).toBe(op.readiness.state);
      expect(await page.locator(`#readiness tr[data-operation="${op.operation}"] [data-field="detail"]`).textContent()).toBe(op.readiness.detail);
    }
    for (const client of report.clients) {
      const row = page.locator(`#clients tr[data-client=${JSON.stringify(client.client)}]`);
      expect(await row.locator('[data-field="legacyRequests"]').getAttribute('data-value')).toBe(String(client.legacyRequests));
      expect(await row.locator('li').count()).toBe(client.blockers.length);
    }
  });

  it('shows the shadow agreement per operation as a bar and in the shadow table, as in the JSON', async () => {
    const shadowed = report.operations.filter((op) => op.shadow.compared > 0);
    expect(shadowed.map((op) => op.operation)).toEqual(expect.arrayContaining(['recipes.search', 'grocery.list', 'trysoons.list']));
    const bars = await attributes('#operations svg.agreement-bar rect.agreement-fill', ['data-operation', 'data-agreement', 'width']);
    expect(bars.map((b) => [b['data-operation'], Number(b['data-agreement'])])).toEqual(shadowed.map((op) => [op.operation, op.shadow.agreement]));
    for (const bar of bars) expect(Number(bar['width'])).toBeGreaterThan(0);
    const box = await page.locator('#operations tr[data-operation="recipes.search"] svg.agreement-bar').boundingBox();
    expect(box?.width).toBeGreaterThan(30);
    for (const op of report.operations.filter((o) => o.shadow.compared + o.shadow.skipped > 0)) {
      const row = page.locator(`#shadow tr[data-operation="${op.operation}"]`);
      const value = (field: string) => row.locator(`[data-field="${field}"]`).getAttribute('data-value');
      expect(await value('compared')).toBe(String(op.shadow.compared));
      expect(await value('equal')).toBe(String(op.shadow.equal));
      expect(await value('differing')).toBe(String(op.shadow.differing));
      expect(await value('skipped')).toBe(String(op.shadow.skipped));
      expect(await value('agreement')).toBe(op.shadow.agreement === null ? '' : String(op.shadow.agreement));
      const paths = await attributes(`#shadow tr[data-operation="${op.operation}"] li[data-path]`, ['data-path', 'data-count']);
      expect(paths.map((p) => ({ path: p['data-path'], count: Number(p['data-count']) }))).toEqual([...op.shadow.topFields, ...op.shadow.noiseFields]);
    }
  });

  it('shows a hostile path template and client label as text: no element, script or attribute escapes', async () => {
    expect(await page.title()).toBe('Migration report');
    expect(await page.locator('#injected-template, #injected-client, #injected-label, script, img').count()).toBe(0);
    expect(await page.locator('#uncatalogued td[data-field="pathTemplate"]').allTextContents()).toContain(HOSTILE_TEMPLATE);
    expect((await attributes('#uncatalogued tr[data-path-template]', ['data-path-template'])).map((a) => a['data-path-template'])).toContain(HOSTILE_TEMPLATE);
    expect((await attributes('#clients tr[data-client]', ['data-client'])).map((a) => a['data-client'])).toContain(HOSTILE_CLIENT);
    expect((await attributes('#chart-top-clients rect.client-bar', ['data-client'])).map((a) => a['data-client'])).toContain(HOSTILE_CLIENT);
    expect(await page.locator('#chart-top-clients text').allTextContents()).toContain(`${HOSTILE_LABEL} (${HOSTILE_CLIENT})`);
    expect(await page.locator('#clients td').allTextContents()).toContain(`${HOSTILE_LABEL} (${HOSTILE_CLIENT})`);
    // Every chart is still one complete SVG: nothing closed it early.
    for (const id of ['#chart-mode-share', '#chart-timeline', '#chart-top-clients']) expect(await page.locator(`${id} title`).count(), id).toBeGreaterThan(0);
  });

  it('saves a screenshot as a test artifact', async () => {
    await mkdir(join(process.cwd(), 'artifacts'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect((await stat(SCREENSHOT)).size).toBeGreaterThan(10_000);
  });
});

/**
 * The migration guide a client's developer can act on (issue 46): for a client driven through
 * every catalogued operation (each a different number of times), each operation's count equals
 * its usage lines, writes and legacy-only operations alike; each mapped operation has a curl line
 * of its api2 call on the api2 base URL of the gateway's config (or $API2_BASE_URL without it),
 * made of the client's own most frequent request of that operation (its usage lines' `params`: a
 * search for chicken, page 2, sent more often than the catalogue's example) and placeholders for
 * the secrets: neither the api key (given in spellings the gateway reads as the key), nor the
 * user's password, nor the hash key appears in the guide or the usage log; the HTML page fits
 * 1280 px in Chromium.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../src/catalogue/operations.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { clientHashLines } from '../src/report/client-hash.js';
import { nodeHmacSha256 } from '../src/request/hmac-node.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import { SANDBOX_BEHAVIOUR } from '../src/sandbox/behaviour.js';
import { createSandboxStores } from '../src/sandbox/shared-stores.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { openChromiumPage } from './support/chromium.js';
import { closedAfterAllTests } from './support/cleanup.js';
import { startTestGateway } from './support/gateway.js';
import { send } from './support/http.js';
import { tempDir } from './support/log-fixtures.js';
import { nodeArgsOf } from './support/entry.js';

const run = promisify(execFile);
const node = process.execPath;
const HASH_KEY = 'guide-curl-test-hash-key-0123456789';
const KEY = 'sandbox-free-key';
const PASSWORD = 'alice-pass';
const BASIC = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`;
const SECRETS = [KEY, PASSWORD, BASIC.slice(6), HASH_KEY];
const cleanup = closedAfterAllTests(60_000);

let dir: string;
let log: string;
let configFile: string;
let api2Origin: string;
const sent = new Map<string, number>();
/** Per operation, how often the client sent each `METHOD target` (without its key) answered below 400. */
const sentTargets = new Map<string, Map<string, number>>();
/** The client's own most frequent search: its curl line must carry these parameters, mapped. */
const OWN_SEARCH = '/recipes?title_kw=chicken&pg=2&rpp=10';

async function guide(args: string[]): Promise<string> {
  const { stdout } = await run(node, [...nodeArgsOf('src/cli/report.ts'), 'guide', '--client', 'web-shop', ...args], { timeout: 120_000 });
  return stdout;
}

beforeAll(async () => {
  dir = await tempDir();
  log = join(dir, 'usage.log');
  const stores = createSandboxStores();
  const api2 = await startApi2Sandbox({ store: stores.api2 });
  const legacy = await startLegacySandbox({ store: stores.legacy });
  cleanup.push(() => api2.close(), () => legacy.close());
  api2Origin = api2.origin;
  const labels = JSON.parse(`{${clientHashLines(nodeHmacSha256, HASH_KEY, [KEY], 'web-shop').join('').replace(/,$/, '')}}`) as Record<string, string>;
  const config: GatewayConfigInput = {
    upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    routes: { 'recipes.search': { mode: 'api2' } },
    observability: { hashKey: HASH_KEY, clientLabels: labels, log: { destination: log } },
  };
  configFile = join(dir, 'gateway.json');
  await writeFile(configFile, JSON.stringify(config));
  const gateway = await startTestGateway(legacy.origin, config);
  const request = async (operation: string, method: string, target: string, body: object | undefined, keyName = 'api_key') => {
    const headers: Record<string, string> = { accept: 'application/json', authorization: BASIC, ...(body ? { 'content-type': 'application/json' } : {}) };
    const answer = await send(gateway.origin, { method, target: `${target}${target.includes('?') ? '&' : '?'}${keyName}=${KEY}`, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    sent.set(operation, (sent.get(operation) ?? 0) + 1);
    if (answer.status >= 400) return; // a second delete of one item: counted, but not a request the guide shows
    const targets = sentTargets.get(operation) ?? new Map<string, number>();
    targets.set(`${method} ${target}`, (targets.get(`${method} ${target}`) ?? 0) + 1);
    sentTargets.set(operation, targets);
  };
  // Every operation, each its own number of times (1, 2 or 3), with the key and the user.
  for (const [i, operation] of OPERATION_IDS.entries()) {
    const { method, target, body } = SANDBOX_BEHAVIOUR[operation].example;
    for (let n = 0; n <= i % 3; n++) await request(operation, method, target, body);
  }
  // The client's own search, more often than the example, the key in spellings the gateway reads as the key.
  for (const keyName of ['api_key', 'API_KEY', 'api%5Fkey', 'Api_Key']) await request('recipes.search', 'GET', OWN_SEARCH, undefined, keyName);
  await gateway.close();
}, 90_000);

/** The client's usage lines per operation. */
async function usageLines(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const line of (await readFile(log, 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)) {
    if (line['msg'] === 'request' && line['clientLabel'] === 'web-shop') counts.set(String(line['operation']), (counts.get(String(line['operation'])) ?? 0) + 1);
  }
  return counts;
}

/** Per `### op` section: its count, its api2 call, the client's own request it is for, and its curl line. */
type Section = { requests: number; curl: string | undefined; api2: string | undefined; legacy: string | undefined };
function sections(markdown: string): Map<string, Section> {
  const found = new Map<string, Section>();
  for (const part of markdown.split(/^### /m).slice(1)) {
    found.set(part.slice(0, part.indexOf(':')), {
      requests: Number(/: (\d+) requests \(/.exec(part)?.[1]),
      curl: /^ {2}(curl .*)$/m.exec(part)?.[1],
      api2: /^- api2: `([^`]+)`/m.exec(part)?.[1],
      legacy: /for your most frequent request `([^`]+)`/.exec(part)?.[1],
    });
  }
  return found;
}

describe('a guide for a client driven through every operation', () => {
  it('counts every operation it used as its usage lines do, writes and legacy-only ones alike', async () => {
    const usage = await usageLines();
    expect(Object.fromEntries(usage)).toEqual(Object.fromEntries(sent));
    const found = sections(await guide(['--config', configFile, log]));
    expect(Object.fromEntries([...found].map(([op, s]) => [op, s.requests]))).toEqual(Object.fromEntries(usage));
  }, 60_000);

  it("gives each mapped operation's api2 call as a curl line on the configured api2 base URL, with its parameters and no secret", async () => {
    const markdown = await guide(['--config', configFile, log]);
    expect(markdown).toContain(`api2 is at <${api2Origin}>.`);
    const found = sections(markdown);
    const withCurl = [...found].filter(([, s]) => s.curl !== undefined);
    expect(withCurl.length).toBeGreaterThanOrEqual(10);
    for (const [operation, { curl, api2 }] of withCurl) {
      const [method, target] = api2!.split(' ') as [string, string];
      expect(curl, operation).toContain(`-X ${method} `);
      expect(curl, operation).toContain(`"${api2Origin}${target}"`);
      expect(curl, operation).toContain('-H "x-bigoven-api-key: $API2_KEY"');
    }
    // Each api2 call is shown for the client's own most frequent request of that operation.
    for (const [operation] of withCurl) {
      const mostFrequent = [...(sentTargets.get(operation) ?? [])].sort((a, b) => b[1] - a[1])[0]?.[0];
      expect(found.get(operation)!.legacy, operation).toBe(mostFrequent);
    }
    expect(found.get('recipes.search')!.legacy).toBe(`GET ${OWN_SEARCH}`);
    // The search's own keyword, page and page size, mapped; a review's body (never logged) is the example's.
    expect(found.get('recipes.search')!.curl).toMatch(/title_kw=chicken&pg=2&rpp=10/);
    expect(found.get('reviews.create')!.curl).toContain('--data "{\\"StarRating\\":4');
    expect(found.get('grocery.list')!.curl).toContain('-u "$API2_USER:$API2_PASSWORD"');
    for (const secret of SECRETS) expect(markdown).not.toContain(secret);
    const logged = await readFile(log, 'utf8');
    expect(logged).toContain('"params":"title_kw=chicken&pg=2&rpp=10"');
    for (const secret of SECRETS) expect(logged).not.toContain(secret);
    const placeholder = await guide([log]);
    expect(sections(placeholder).get('recipes.search')!.curl).toContain('"$API2_BASE_URL/recipes?');
  }, 60_000);

  it('reads in Chromium within 1280 px, with the curl lines and no secret', async () => {
    const file = join(dir, 'web-shop.html');
    await writeFile(file, await guide(['--config', configFile, '--format', 'html', log]));
    const html = await readFile(file, 'utf8');
    for (const secret of SECRETS) expect(html).not.toContain(secret);
    const page = await openChromiumPage(cleanup);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(pathToFileURL(file).href);
    const [scrollWidth, viewport] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(scrollWidth).toBeLessThanOrEqual(viewport);
    expect(await page.locator('#api2-base-url').getAttribute('data-value')).toBe(api2Origin);
    expect(await page.locator('tr[data-operation="recipes.search"] [data-field="curl"]').innerText()).toContain(`${api2Origin}/recipes?title_kw=chicken&pg=2&rpp=10`);
    expect(await page.locator('tr[data-operation] [data-field="requests"]').count()).toBe(OPERATION_IDS.length);
    await page.screenshot({ path: join(process.cwd(), 'artifacts', 'guide-1280.png'), fullPage: true });
  }, 60_000);
});

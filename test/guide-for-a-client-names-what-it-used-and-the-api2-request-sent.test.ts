/**
 * `recipe-gateway-report guide` for a client driven through a real gateway in front of the
 * sandboxes (search and reviews.get on api2, the grocery list and a favorite add on legacy, a
 * second client beside it): the guide names every operation the client used, with counts and last
 * use equal to its usage lines; for each mapped operation the api2 request the guide shows is the
 * one the mapping actually sent (recorded by the api2 sandbox: method, path, query, and the api key
 * in its header); the legacy-only operation is listed as such; the dates come from the config; the
 * client programs it called from are named.
 * The same guide is made from ClickHouse, `--all` writes one page per client, and the HTML page is
 * read in Chromium.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { SANDBOX_BEHAVIOUR } from '../src/sandbox/behaviour.js';
import { dateInWords } from '../src/display/time.js';
import { clientHashLines } from '../src/report/client-hash.js';
import { nodeHmacSha256 } from '../src/request/hmac-node.js';
import { ingest } from '../src/report/sources/clickhouse-ingest.js';
import { clickHouseTarget, execute, select } from '../src/report/sources/clickhouse-http.js';
import { createTableSql } from '../src/report/sources/clickhouse-ddl.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import type { SeenApi2Request } from '../src/sandbox/api2-start.js';
import { createSandboxStores } from '../src/sandbox/shared-stores.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { openChromiumPage } from './support/chromium.js';
import { closedAfterAllTests } from './support/cleanup.js';
import { clickHouseForThisFile } from './support/clickhouse-for-this-file.js';
import { startTestGateway } from './support/gateway.js';
import { basic, send } from './support/http.js';
import { tempDir } from './support/log-fixtures.js';
import { nodeArgsOf } from './support/entry.js';

const run = promisify(execFile);
const node = process.execPath;
const HASH_KEY = 'guide-test-hash-key-0123456789ab';
const labels = (key: string, label: string): Record<string, string> => JSON.parse(`{${clientHashLines(nodeHmacSha256, HASH_KEY, [key], label).join('').replace(/,$/, '')}}`) as Record<string, string>;
const ALICE = basic('alice', 'alice-pass');
const cleanup = closedAfterAllTests(60_000);
const clickHouseUrl = clickHouseForThisFile();

let dir: string;
let log: string;
let configFile: string;
let lines: Array<Record<string, unknown>>;
const api2Requests: SeenApi2Request[] = [];

/** The client's requests: the sandbox's own examples of search and reviews.get (so the guide's example is what was sent), and two legacy ones. */
const SEARCH = SANDBOX_BEHAVIOUR['recipes.search'].example.target;
const REVIEW = SANDBOX_BEHAVIOUR['reviews.get'].example.target;
/** The client's own search, sent more often than the example. */
const OWN_SEARCH = '/recipes?title_kw=chicken&pg=2&rpp=10';

async function guide(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(node, [...nodeArgsOf('src/cli/report.ts'), 'guide', ...args], { timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return error as { code: number; stdout: string; stderr: string };
  }
}

beforeAll(async () => {
  dir = await tempDir();
  log = join(dir, 'usage.log');
  const stores = createSandboxStores();
  const api2 = await startApi2Sandbox({ store: stores.api2, onRequest: (r) => api2Requests.push(r) });
  const legacy = await startLegacySandbox({ store: stores.legacy });
  cleanup.push(() => api2.close(), () => legacy.close());
  const config: GatewayConfigInput = {
    upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    routes: { 'recipes.search': { mode: 'api2' }, 'reviews.get': { mode: 'api2' } },
    observability: { hashKey: HASH_KEY, clientLabels: { ...labels('sandbox-free-key', 'web-shop'), ...labels('sandbox-paid-key', 'partner-app') }, log: { destination: log } },
    deprecation: {
      everyOperation: { deprecatedAt: '2026-12-01', deprecationLink: 'https://developer.example.com/legacy' },
      operations: { 'favorites.create': { sunsetAt: '2027-03-31' } },
    },
  };
  configFile = join(dir, 'gateway.json');
  await writeFile(configFile, JSON.stringify(config));
  const gateway = await startTestGateway(legacy.origin, config);
  const get = (target: string, key: string, headers: Record<string, string> = {}) =>
    send(gateway.origin, { target: `${target}${target.includes('?') ? '&' : '?'}api_key=${key}`, headers: { accept: 'application/json', ...headers } });
  // Two builds of the client's software (User-Agent families), and calls without a User-Agent.
  for (let i = 0; i < 3; i++) expect((await get(SEARCH, 'sandbox-free-key', { 'user-agent': 'WebShop/3.1 (Linux; Android 12)' })).status).toBe(200);
  // Its own most frequent search (the guide's curl line is made of it), the key given once in odd spellings the gateway reads as the key.
  for (const key of ['api_key', 'API_KEY', 'api%5Fkey', 'Api_Key']) expect((await send(gateway.origin, { target: `${OWN_SEARCH}&${key}=sandbox-free-key`, headers: { accept: 'application/json' } })).status).toBe(200);
  for (let i = 0; i < 2; i++) expect((await get('/grocerylist', 'sandbox-free-key', { authorization: ALICE, 'user-agent': 'ShopSync/1.0' })).status).toBe(200);
  expect((await get(REVIEW, 'sandbox-free-key')).status).toBe(200);
  const favorite = await send(gateway.origin, { method: 'POST', target: '/favorites?api_key=sandbox-free-key', headers: { authorization: ALICE, 'content-type': 'application/json' }, body: '{"rid":7}' });
  expect(favorite.status).toBe(204);
  for (let i = 0; i < 2; i++) expect((await get('/recipes?any_kw=cake', 'sandbox-paid-key')).status).toBe(200);
  await gateway.close();
  lines = (await readFile(log, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['msg'] === 'request');
}, 60_000);

/** The client's usage lines per operation: count and last time (ISO). */
function usageOf(label: string): Map<string, { requests: number; last: string }> {
  const usage = new Map<string, { requests: number; last: string }>();
  for (const line of lines.filter((l) => l['clientLabel'] === label)) {
    const op = String(line['operation']);
    const found = usage.get(op) ?? { requests: 0, last: '' };
    const time = new Date(line['time'] as number).toISOString();
    usage.set(op, { requests: found.requests + 1, last: time > found.last ? time : found.last });
  }
  return usage;
}

/** `### op: …` sections of a Markdown guide: each operation's requests, last use and api2 request. */
function sections(markdown: string): Map<string, { requests: number; last: string; api2: string | undefined; text: string }> {
  const found = new Map<string, { requests: number; last: string; api2: string | undefined; text: string }>();
  for (const part of markdown.split(/^### /m).slice(1)) {
    const operation = part.slice(0, part.indexOf(':'));
    const usage = /: (\d+) requests \(answered by [^)]*\); first used [^;]+; last used (.+)$/m.exec(part)!;
    found.set(operation, { requests: Number(usage[1]), last: usage[2]!, api2: /^- api2: `([^`]+)`/m.exec(part)?.[1], text: part });
  }
  return found;
}

/** What the api2 sandbox received for one path (and query holding `part`) with the client's api key in its header: `METHOD target`, every one alike. */
function recordedCall(path: string, part = ''): string {
  const calls = api2Requests.filter((r) => r.target.split('?')[0] === path && r.target.includes(part) && r.headers['x-bigoven-api-key'] === 'sandbox-free-key');
  expect(calls.length).toBeGreaterThan(0);
  expect(new Set(calls.map((c) => `${c.method} ${c.target}`)).size).toBe(1);
  return `${calls[0]!.method} ${calls[0]!.target}`;
}

describe('a migration guide made from a client\'s own usage', () => {
  let markdown: string;
  beforeAll(async () => {
    const made = await guide(['--client', 'web-shop', '--config', configFile, log]);
    expect(made.code, made.stderr).toBe(0);
    markdown = made.stdout;
  }, 60_000);

  it('names every operation it used, with counts and last use equal to its usage lines', () => {
    const usage = usageOf('web-shop');
    expect([...usage.keys()].sort()).toEqual(['favorites.create', 'grocery.list', 'recipes.search', 'reviews.get']);
    const found = sections(markdown);
    expect([...found.keys()].sort()).toEqual([...usage.keys()].sort());
    // Dates in words (issue 46): `28 Nov 2026, 03:28:39 UTC`.
    for (const [operation, { requests, last }] of usage) expect(found.get(operation), operation).toMatchObject({ requests, last: dateInWords(last) });
    expect(markdown).not.toContain('partner-app');
  });

  it('names the client programs it called from, counted from its usage lines', () => {
    const programs = new Map<string, number>();
    for (const line of lines.filter((l) => l['clientLabel'] === 'web-shop' && l['clientProgram'] !== undefined)) programs.set(String(line['clientProgram']), (programs.get(String(line['clientProgram'])) ?? 0) + 1);
    expect([...programs]).toEqual([['WebShop', 3], ['ShopSync', 2]]);
    expect(markdown).toContain('Seen from: `WebShop` (3 requests), `ShopSync` (2 requests).');
  });

  it('shows for each mapped operation the api2 request the mapping actually sent, with the key header', () => {
    const found = sections(markdown);
    // The client's own most frequent search (4 of 7), not the example it sent 3 times.
    expect(found.get('recipes.search')!.api2).toBe(recordedCall('/recipes', 'title_kw=chicken'));
    expect(found.get('recipes.search')!.text).toContain(`for your most frequent request \`GET ${OWN_SEARCH}\``);
    expect(found.get('reviews.get')!.text).toContain(`for your most frequent request \`GET ${REVIEW}\``);
    expect(found.get('reviews.get')!.api2).toBe(recordedCall('/recipe/review/82'));
    expect(found.get('recipes.search')!.text).toContain('`x-bigoven-api-key: <your api key>`');
    expect(found.get('recipes.search')!.text).toMatch(/fields lost: `Results\[\]\.QualityScore`/);
  });

  it('lists the operation with no api2 equivalent apart, with its own dates and the interface\'s', () => {
    const legacyOnly = markdown.slice(markdown.indexOf('## Operations with no api2 equivalent yet'));
    expect(sections(legacyOnly).has('favorites.create')).toBe(true);
    expect(sections(legacyOnly).get('favorites.create')!.text).toContain('goes away on 31 Mar 2027');
    expect(markdown).toContain('The legacy interface: deprecated since 1 Dec 2026; deprecation notice: <https://developer.example.com/legacy>.');
  });

  it('is the same guide from ClickHouse, into a table made before the params field, which ingest gives its column; no row holds a secret', async () => {
    const target = clickHouseTarget(clickHouseUrl());
    await execute(target, createTableSql('guide_usage'));
    await execute(target, 'ALTER TABLE guide_usage DROP COLUMN params');
    await ingest(target, 'guide_usage', [log]);
    const rows = JSON.stringify(await select(target, 'SELECT * FROM guide_usage'));
    expect(rows).toContain('title_kw=chicken&pg=2&rpp=10');
    for (const secret of ['sandbox-free-key', 'sandbox-paid-key', 'alice-pass', ALICE.slice(6)]) expect(rows).not.toContain(secret);
    const made = await guide(['--client', 'web-shop', '--config', configFile, '--clickhouse', clickHouseUrl(), '--table', 'guide_usage']);
    expect(made.code, made.stderr).toBe(0);
    const withoutSource = (text: string) => text.replace(/ \(from .*\)\.$/m, "");
    expect(withoutSource(made.stdout)).toBe(withoutSource(markdown));
  }, 120_000);

  it('--all writes one page per client seen; an unknown client is exit 1', async () => {
    const out = join(dir, 'guides');
    const made = await guide(['--all', '--out', out, log]);
    expect(made.code, made.stderr).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['partner-app.md', 'web-shop.md']);
    expect(await guide(['--client', 'nobody', log])).toMatchObject({ code: 1, stderr: expect.stringContaining('no usage line of nobody') });
  });

  it('reads in Chromium as HTML: every operation with its count, the api2 request sent', async () => {
    const file = join(dir, 'web-shop.html');
    const made = await guide(['--client', 'web-shop', '--format', 'html', '--out', file, '--config', configFile, log]);
    expect(made.code, made.stderr).toBe(0);
    const page = await openChromiumPage(cleanup);
    await page.goto(pathToFileURL(file).href);
    expect(await page.locator('h1').innerText()).toBe('Migration guide for web-shop');
    const rows = await page.locator('tr[data-operation]').evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-operation'), Number(tr.querySelector('[data-field="requests"]')?.getAttribute('data-value')), tr.closest('table')?.id]),
    );
    const usage = usageOf('web-shop');
    expect(rows.sort()).toEqual(
      [...usage].map(([operation, { requests }]) => [operation, requests, operation === 'favorites.create' ? 'legacy-only' : 'movable']).sort(),
    );
    expect(await page.locator('tr[data-operation="recipes.search"] [data-field="api2Request"]').innerText()).toBe(recordedCall('/recipes', 'title_kw=chicken'));
    expect(await page.locator('tr[data-operation="recipes.search"] [data-field="legacyRequest"]').innerText()).toBe(`for your most frequent request GET ${OWN_SEARCH}`);
    expect(await page.locator('#dates').innerText()).toContain('deprecated since 1 Dec 2026');
    expect(await page.locator('#programs [data-program]').evaluateAll((spans) => spans.map((span) => [span.getAttribute('data-program'), Number(span.getAttribute('data-value'))]))).toEqual([['WebShop', 3], ['ShopSync', 2]]);
  }, 60_000);
});

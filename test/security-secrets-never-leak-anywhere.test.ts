/**
 * Planted secrets (api keys, Basic user names, passwords and their base64, whole Authorization
 * headers, a client bearer token, the hash key, the admin token) sent through three real gateways:
 * legacy pass-through with a shadowed search, api2 mode (admin views on their own listener), and
 * one whose upstreams fail (timeouts, resets, refusals, 431 and 408 from the listener). None of
 * the secrets appears in:
 * - any answer the gateway makes itself (body and headers of every X-Gateway-Error answer and of
 *   the listener's 400/408/431), nor in any answer's headers;
 * - the usage logs (failures, api2 and shadow lines included);
 * - anything written to stdout, stderr or the console meanwhile;
 * - the metrics exposition (labels and values) and the admin views (/admin/config, /admin/traffic);
 * - the search cache's keys, its in-flight keys or its known-key set (read from an in-process app).
 *
 * (test/usage-log-never-leaks-secrets.test.ts covers the usage log of ordinary traffic in every
 * request form; this suite adds the failure paths and every other output.)
 */
import { testRuntime } from './support/test-runtime.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewayApp, createSearchCache } from '../src/app.js';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { createApi2SandboxApp } from '../src/sandbox/api2-app.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import type { StartedApi2Sandbox } from '../src/sandbox/api2-start.js';
import { Api2Store } from '../src/sandbox/api2-store.js';
import { startFaultUpstream } from '../src/sandbox/faults.js';
import type { StartedFaultUpstream } from '../src/sandbox/faults.js';
import { createLegacySandboxApp } from '../src/sandbox/legacy-app.js';
import { LegacyStore } from '../src/sandbox/legacy-store.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { basic, send } from './support/http.js';
import type { RawRequest } from './support/http.js';
import { MAPPED_ROUTES } from './support/api2-mode.js';
import { tempDir } from './support/log-fixtures.js';
import { inProcessUpstream, rawExchange, startRigGateway } from './reliability-support.js';
import type { RigGateway, UpstreamCall } from './reliability-support.js';

const FREE = 'sandbox-free-key';
const PAID = 'sandbox-paid-key';
const CANARY_KEY = 'canary-key-7f3a9c11';
const CANARY_USER = 'canaryuser';
const CANARY_PASS = 'canary-pass-55aa66bb';
const BEARER = 'canary-bearer-0b1c2d3e';
const HASH_KEY = 'canary-hash-key-4242424242';
const ADMIN_TOKEN = 'canary-admin-token-31415926';
const ALICE = basic('alice', 'alice-pass');
const CANARY_BASIC = basic(CANARY_USER, CANARY_PASS);

const SECRETS = [
  FREE,
  PAID,
  CANARY_KEY,
  CANARY_USER,
  CANARY_PASS,
  'alice-pass',
  'bob-pass',
  BEARER,
  HASH_KEY,
  ADMIN_TOKEN,
  ALICE,
  ALICE.slice('Basic '.length),
  CANARY_BASIC.slice('Basic '.length),
  basic('bob', 'bob-pass').slice('Basic '.length),
];

function leaks(text: string): string[] {
  const lower = text.toLowerCase();
  return SECRETS.filter((secret) => lower.includes(secret.toLowerCase()));
}

const outputs: Array<{ where: string; text: string }> = [];
const keep = (where: string, text: string): void => void outputs.push({ where, text });

/** Every request, in every shape, with the secrets where clients put them. */
function traffic(): RawRequest[] {
  const J = { accept: 'application/json' };
  return [
    { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J },
    { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: { ...J, authorization: ALICE } },
    { target: `/recipes?cuisine=italian&api_key=${PAID}`, headers: J },
    { target: `/recipes?title_kw=pie&API_KEY=${CANARY_KEY}` },
    { target: `/recipes?title_kw=pie&api_key=${CANARY_KEY}`, headers: { ...J, authorization: CANARY_BASIC } },
    { target: `/grocerylist?api_key=${FREE}`, headers: { ...J, authorization: ALICE } },
    { target: `/grocerylist?api_key=${FREE}`, headers: { ...J, authorization: CANARY_BASIC } },
    { target: `/favorites?api_key=${CANARY_KEY}`, headers: { ...J, authorization: `Bearer ${BEARER}` } },
    { target: `/trysoons?api_key=${FREE}`, headers: { authorization: basic('bob', 'bob-pass') } },
    { target: `/review/1?api_key=${CANARY_KEY}`, headers: J },
    { target: `/reviews?rid=abc&api_key=${CANARY_KEY}`, headers: J },
    {
      method: 'POST',
      target: `/grocerylist?api_key=${FREE}`,
      headers: { ...J, authorization: ALICE, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'flour', quantity: '1 lb' }),
    },
    { method: 'POST', target: `/reviews?api_key=${CANARY_KEY}&rid=5&rating=9`, headers: { ...J, authorization: CANARY_BASIC } },
    { method: 'DELETE', target: `/grocerylist99999?api_key=${FREE}`, headers: { ...J, authorization: CANARY_BASIC } },
    { target: `/keys/${CANARY_KEY}/${CANARY_PASS}?api_key=${CANARY_KEY}`, headers: { ...J, authorization: CANARY_BASIC } },
    { target: `/a/../recipes?api_key=${CANARY_KEY}`, headers: { ...J, authorization: CANARY_BASIC } },
    { target: `/recipes%00?api_key=${CANARY_KEY}`, headers: J },
    { target: `http://evil.example/recipes?api_key=${CANARY_KEY}`, headers: { ...J, authorization: CANARY_BASIC } },
    { target: `http://api.bigoven.com/recipes?api_key=${CANARY_KEY}`, headers: { ...J, authorization: CANARY_BASIC } },
    { target: `/recipes?title_kw=${'x'.repeat(9000)}&api_key=${CANARY_KEY}`, headers: J },
    { target: '/metrics', headers: { authorization: `Bearer ${BEARER}` } },
  ];
}

async function drive(origin: string, label: string): Promise<void> {
  for (const request of traffic()) {
    const res = await send(origin, request);
    const headers = JSON.stringify(res.headers);
    keep(`${label} answer headers to ${request.method ?? 'GET'} ${request.target.slice(0, 80)}`, headers);
    if (res.headers['x-gateway-error'] !== undefined || res.status === 401) keep(`${label} gateway answer to ${request.target.slice(0, 80)}`, res.text());
  }
  // Refused by the listener before any request exists: 431 (oversized headers), 400 (broken HTTP).
  const big = await rawExchange(origin, `GET /recipes?api_key=${CANARY_KEY} HTTP/1.1\r\nHost: x\r\nAuthorization: ${CANARY_BASIC}\r\nX-Pad: ${'p'.repeat(20_000)}\r\n\r\n`);
  expect(big.status).toBe(431);
  keep(`${label} 431`, big.raw);
  const broken = await rawExchange(origin, `GET /recipes?api_key=${CANARY_KEY} HTTP/1.1\r\nHost: x\r\nAuthorization: ${CANARY_BASIC}\r\nBad Header: ${BEARER}\r\n\r\n`);
  expect(broken.status).toBe(400);
  keep(`${label} 400`, broken.raw);
}

async function scrape(url: string, label: string): Promise<void> {
  const res = await send(url, { target: new URL(url).pathname, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.status, `${label} ${url}`).toBe(200);
  keep(`view: ${label} ${new URL(url).pathname}`, res.text());
}


let legacy: StartedLegacySandbox;
let api2: StartedApi2Sandbox;
let silent: StartedFaultUpstream;
let resetting: StartedFaultUpstream;
const logs: string[] = [];
const written: string[] = [];

beforeAll(async () => {
  const dir = await tempDir();
  legacy = await startLegacySandbox();
  api2 = await startApi2Sandbox();
  silent = await startFaultUpstream({ mode: 'silent' });
  resetting = await startFaultUpstream({ mode: 'reset-mid-body', tls: true });

  // Everything written to stdout, stderr and the console while the gateways run.
  const capture = (chunk: unknown): void => void written.push(typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (capture(chunk), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => (capture(chunk), true)),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((level) => vi.spyOn(console, level).mockImplementation((...args: unknown[]) => capture(args.map(String).join(' ')))),
  ];

  try {
    const gateways: Array<{ label: string; gateway: RigGateway; log: string }> = [];
    const start = async (
      label: string,
      overrides: Partial<GatewayConfigInput> & { upstreams: GatewayConfigInput['upstreams'] },
      admin: { bearerToken: string; listen?: { host: string; port: number } },
    ): Promise<void> => {
      const log = join(dir, `${label}.log`);
      gateways.push({ label, gateway: await startRigGateway({ ...overrides, observability: { log: { destination: log }, hashKey: HASH_KEY, admin } }), log });
    };
    await start(
      'legacy',
      { upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } }, routes: { 'recipes.search': { mode: 'shadow' } } },
      { bearerToken: ADMIN_TOKEN },
    );
    await start(
      'api2',
      { upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } }, routes: MAPPED_ROUTES },
      { bearerToken: ADMIN_TOKEN, listen: { host: '127.0.0.1', port: 0 } },
    );
    await start(
      'failing',
      {
        upstreams: { legacy: { baseUrl: silent.origin }, api2: { baseUrl: resetting.origin, caFile: resetting.caFile } },
        routes: { 'reviews.get': { mode: 'api2' }, 'grocery.list': { mode: 'api2' }, 'favorites.list': { mode: 'api2' } },
        timeouts: { defaultMs: 200 },
        limits: { headersTimeoutMs: 300 },
      },
      { bearerToken: ADMIN_TOKEN },
    );

    for (const { label, gateway } of gateways) {
      await drive(gateway.origin, label);
      const metrics = gateway.running.metricsUrl?.replace(/ \(bearer token\)$/, '');
      if (!metrics) throw new Error(`${label}: metrics not served`);
      await scrape(metrics, label);
      const adminOrigin = gateway.running.adminOrigin ?? gateway.origin;
      await scrape(`${adminOrigin}/admin/config`, label);
      await scrape(`${adminOrigin}/admin/traffic`, label);
    }
    // The failing gateway: a slowloris request carrying credentials gets its 408 too.
    const failing = gateways.find((g) => g.label === 'failing');
    if (failing) {
      const slow = await rawExchange(failing.gateway.origin, [`GET /recipes?api_key=${CANARY_KEY} HTTP/1.1\r\nHost: x\r\n`, `Authorization: ${CANARY_BASIC}\r\n`], { gapMs: 50, timeoutMs: 15_000 });
      keep('failing 408', slow.raw);
    }
    for (const { gateway, log } of gateways) {
      await gateway.close();
      logs.push(await readFile(log, 'utf8'));
    }
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}, 60_000);

afterAll(async () => {
  await Promise.all([legacy.close(), api2.close(), silent.close(), resetting.close()]);
});

describe('secrets', () => {
  it('never appear in an answer the gateway makes, nor in any answer header', () => {
    expect(outputs.length).toBeGreaterThan(100);
    for (const { where, text } of outputs.filter((o) => !o.where.startsWith('view: '))) {
      expect(leaks(text), where).toEqual([]);
    }
  });

  it('never appear in the usage logs, failures, api2 and shadow lines included', () => {
    expect(logs).toHaveLength(3);
    for (const log of logs) {
      expect(log.trimEnd().split('\n').length).toBeGreaterThan(15);
      expect(leaks(log)).toEqual([]);
      expect(log).not.toMatch(/authorization/i);
    }
    const all = logs.join('\n');
    expect(all).toContain('"msg":"shadow"');
    expect(all).toMatch(/"error":"upstream-(timeout|reset)/);
    expect(all).toContain('"mode":"api2"');
  });

  it('never appear on stdout, stderr or the console', () => {
    expect(leaks(written.join('\n'))).toEqual([]);
  });

  it('never appear in the metrics or the admin views', () => {
    const views = outputs.filter((o) => o.where.startsWith('view: '));
    expect(views).toHaveLength(9);
    for (const { where, text } of views) expect(leaks(text), where).toEqual([]);
    expect(views.find((v) => v.where.endsWith('/admin/config'))?.text).toContain('[redacted]');
  });

  it('never appear in the search cache: stored keys, in-flight keys, known keys', async () => {
    const calls: UpstreamCall[] = [];
    const parsed = parseConfig({
      upstreams: { legacy: { baseUrl: 'http://legacy.internal' }, api2: { baseUrl: 'https://api2.internal' } },
      routes: { 'recipes.search': { mode: 'canary', canaryPercent: 50 } },
      observability: { log: { enabled: false } },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const searchCache = createSearchCache(parsed.config, testRuntime().hmacSha256);
    // Its internals, as the one cache flow keeps them (src/cache/page-cache.ts: L1 is a MemoryTier, flights by key).
    const cache = searchCache as unknown as { pages: { local: { entries: Map<string, unknown> }; flights: Map<string, unknown> }; knownKeys: Map<string, unknown> };
    // In-flight keys, as they are while the upstream works.
    const inflight: string[] = [];
    const watching = (fetch: (request: Request) => Response | Promise<Response>) => (request: Request) => {
      inflight.push(...cache.pages.flights.keys());
      return fetch(request);
    };
    const app = createGatewayApp({
      config: parsed.config,
      upstreams: {
        legacy: inProcessUpstream('legacy', watching(createLegacySandboxApp(new LegacyStore()).fetch), calls),
        api2: inProcessUpstream('api2', watching(createApi2SandboxApp(new Api2Store()).fetch), calls),
      },
      runtime: testRuntime(),
      shared: { searchCache },
    });
    const searches: Array<[string, Record<string, string>]> = [
      [`/recipes?title_kw=soup&api_key=${FREE}`, {}],
      [`/recipes?title_kw=soup&api_key=${FREE}`, { authorization: ALICE }],
      [`/recipes?title_kw=soup&api_key=${PAID}&cuisine=italian`, { authorization: basic('bob', 'bob-pass') }],
      [`/recipes?title_kw=soup&api_key=${CANARY_KEY}`, { authorization: CANARY_BASIC }],
      [`/recipes?title_kw=pie&api_key=${FREE}`, { authorization: `Bearer ${BEARER}` }],
    ];
    const pending = searches.map(([target, headers]) => app.fetch(new Request(`http://api.bigoven.com${target}`, { headers: { accept: 'application/json', ...headers } })));
    const answers = await Promise.all(pending);
    expect(answers.map((a) => a.status)).toContain(200);
    const stored = [...cache.pages.local.entries.keys()];
    expect(stored.length).toBeGreaterThanOrEqual(3);
    const known = JSON.stringify([...cache.knownKeys.keys()]);
    expect(leaks(JSON.stringify(stored))).toEqual([]);
    expect(inflight.length).toBeGreaterThan(2);
    expect(leaks(JSON.stringify(inflight))).toEqual([]);
    expect(leaks(known)).toEqual([]);
  });
});

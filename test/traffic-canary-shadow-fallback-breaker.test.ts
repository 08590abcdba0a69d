/**
 * Traffic control through a real gateway: canary routing (sticky, with a header override),
 * shadow comparison (a wrong mapping is caught and the field named; noise is not blamed; a
 * hanging shadow call never delays the client; writes never reach api2), fallback to legacy and
 * the api2 circuit breaker.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildDataset } from '../src/sandbox/dataset/dataset.js';
import { Api2Store } from '../src/sandbox/api2-store.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import type { SeenApi2Request } from '../src/sandbox/api2-start.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { PLACEHOLDER_PHOTO_URL } from '../src/sandbox/dataset/dataset.js';
import { basic, send } from './support/http.js';
import { startTestGateway } from './support/gateway.js';
import { startGatewayInFrontOfMisbehavingApi2, startGatewayWithApi2Down } from './support/misbehaving-api2.js';
import { MAPPED_ROUTES } from './support/api2-mode.js';
import { waitFor } from './support/wait.js';
import { closedAfterEachTest } from './support/cleanup.js';

const J = { accept: 'application/json' };
const FREE = 'sandbox-free-key';
const ALICE = basic('alice', 'alice-pass');
const cleanup = closedAfterEachTest();

/** A write (grocery.create) as alice: the request the write-path tests send. */
function createGroceryItem(origin: string) {
  return send(origin, {
    method: 'POST',
    target: `/grocerylist?api_key=${FREE}`,
    headers: { ...J, authorization: ALICE, 'content-type': 'application/json' },
    body: '{"quantity":"1","name":"milk"}',
  });
}

async function rig(routes: GatewayConfigInput['routes'], options: { api2Store?: Api2Store; legacyOrigin?: string; extra?: Partial<GatewayConfigInput> } = {}) {
  const seen: SeenApi2Request[] = [];
  const api2 = await startApi2Sandbox({ ...(options.api2Store ? { store: options.api2Store } : {}), onRequest: (r) => seen.push(r) });
  cleanup.push(() => api2.close());
  let legacyOrigin = options.legacyOrigin;
  if (!legacyOrigin) {
    const legacy = await startLegacySandbox();
    cleanup.push(() => legacy.close());
    legacyOrigin = legacy.origin;
  }
  const gateway = await startTestGateway(legacyOrigin, {
    upstreams: { legacy: { baseUrl: legacyOrigin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
    cache: { enabled: false },
    routes,
    ...options.extra,
  });
  cleanup.push(() => gateway.close());
  return { gateway, seen, api2 };
}

describe('canary', () => {
  it('keeps each client on one side, and a configured header forces either side', async () => {
    const { gateway } = await rig({ 'recipes.search': { mode: 'canary', canaryPercent: 50 } }, { extra: { traffic: { forceHeader: 'X-Route-To' } } });
    const sides = new Map<string, Set<string>>();
    for (let round = 0; round < 3; round++) {
      for (const user of ['alice', 'bob']) {
        for (const key of [FREE, 'sandbox-paid-key']) {
          await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${key}`, headers: { ...J, authorization: basic(user, `${user}-pass`) } });
          const client = `${key}/${user}`;
          const set = sides.get(client) ?? new Set();
          set.add(gateway.records.at(-1)?.mode ?? '?');
          sides.set(client, set);
        }
      }
    }
    for (const set of sides.values()) expect(set.size).toBe(1);
    for (const side of ['legacy', 'api2'] as const) {
      const res = await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: { ...J, 'x-route-to': side } });
      expect(res.status).toBe(200);
      expect(gateway.records.at(-1)).toMatchObject({ mode: side, routeMode: 'canary' });
    }
  });
});

describe('shadow', () => {
  it('answers from legacy and names the field a wrong mapping gets wrong', async () => {
    const dataset = buildDataset();
    const recipe = dataset.recipes.find((r) => r.title.toLowerCase().includes('soup') && !r.isPrivate && !r.hideFromPublicSearch);
    if (!recipe) throw new Error('no soup in the dataset');
    (recipe as { title: string }).title = `${recipe.title} (renamed in api2)`;
    const { gateway } = await rig({ 'recipes.search': { mode: 'shadow' } }, { api2Store: new Api2Store({ dataset }) });
    const res = await send(gateway.origin, { target: `/recipes?title_kw=soup&rpp=50&api_key=${FREE}`, headers: J });
    expect(res.status).toBe(200);
    expect(gateway.records.at(-1)).toMatchObject({ mode: 'legacy', routeMode: 'shadow' });
    await waitFor(() => gateway.shadows.length === 1);
    expect(gateway.shadows[0]).toMatchObject({ operation: 'recipes.search', outcome: 'differ' });
    expect(gateway.shadows[0]?.diffs?.map((d) => d.path)).toContain('Results[].Title');
  });

  it('compares the requests of XML clients (no Accept: the legacy default) too: equal when api2 agrees, the differing field named when not', async () => {
    const dataset = buildDataset();
    const recipe = dataset.recipes.find((r) => r.title.toLowerCase().includes('soup') && !r.isPrivate && !r.hideFromPublicSearch);
    if (!recipe) throw new Error('no soup in the dataset');
    (recipe as { title: string }).title = `${recipe.title} (renamed in api2)`;
    const honest = await rig({ 'recipes.search': { mode: 'shadow' } });
    const wrong = await rig({ 'recipes.search': { mode: 'shadow' } }, { api2Store: new Api2Store({ dataset }) });
    for (const { gateway } of [honest, wrong]) {
      const res = await send(gateway.origin, { target: `/recipes?title_kw=soup&rpp=50&api_key=${FREE}` });
      expect(res.status).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/xml/);
      await waitFor(() => gateway.shadows.length === 1);
    }
    expect(honest.gateway.shadows[0], JSON.stringify(honest.gateway.shadows)).toMatchObject({ operation: 'recipes.search', outcome: 'equal', legacyStatus: 200, api2Status: 200 });
    expect(wrong.gateway.shadows[0], JSON.stringify(wrong.gateway.shadows)).toMatchObject({ operation: 'recipes.search', outcome: 'differ' });
    expect(wrong.gateway.shadows[0]?.diffs?.map((d) => d.path)).toContain('Results[].Title');
  });

  it('asks legacy nothing more for a page the cache serves an XML client: the page is compared once, when filled', async () => {
    const { gateway } = await rig({ 'recipes.search': { mode: 'shadow' } }, { extra: { cache: { enabled: true } } });
    for (const expected of ['MISS', 'HIT', 'HIT']) {
      const res = await send(gateway.origin, { target: `/recipes?title_kw=soup&rpp=50&api_key=${FREE}` });
      expect(res.headers['x-cache']).toBe(expected);
    }
    await waitFor(() => gateway.shadows.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(gateway.shadows.map((shadow) => shadow.outcome), JSON.stringify(gateway.shadows)).toEqual(['equal']);
  });

  it('finds an honest mapping equal, over the whole catalogue of safe operations', async () => {
    const { gateway } = await rig(Object.fromEntries(Object.keys(MAPPED_ROUTES).map((id) => [id, { mode: 'shadow' as const }])));
    const reads = [
      `/recipes?title_kw=chicken&rpp=20&api_key=${FREE}`,
      `/reviews?rid=5&api_key=${FREE}`,
      `/review/1?api_key=${FREE}`,
    ];
    for (const target of reads) await send(gateway.origin, { target, headers: J });
    for (const target of ['/grocerylist', '/favorites', '/trysoons']) await send(gateway.origin, { target: `${target}?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    await waitFor(() => gateway.shadows.length === 6);
    for (const shadow of gateway.shadows) expect(shadow, JSON.stringify(shadow)).toMatchObject({ outcome: 'equal' });
  });

  it('does not blame fields on which legacy itself varies (noise)', async () => {
    const legacy = await startLegacySandbox();
    cleanup.push(() => legacy.close());
    let calls = 0;
    const noisy = createServer((req, res) => {
      void fetch(`${legacy.origin}${req.url ?? '/'}`, { headers: { accept: 'application/json' } }).then(async (answer) => {
        const page = (await answer.json()) as { SpellSuggest: string | null };
        calls += 1;
        page.SpellSuggest = `served at ${calls}`;
        res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(page));
      });
    });
    await new Promise<void>((resolve) => noisy.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => noisy.close(() => resolve())));
    const origin = `http://127.0.0.1:${(noisy.address() as AddressInfo).port}`;
    const { gateway } = await rig({ 'recipes.search': { mode: 'shadow' } }, { legacyOrigin: origin });
    await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J });
    await waitFor(() => gateway.shadows.length === 1);
    expect(gateway.shadows[0]).toMatchObject({ outcome: 'equal', noise: ['SpellSuggest'] });
  });

  it('never lets a hanging shadow call delay the client', async () => {
    const neverAnswers = () => undefined;
    const { gateway, api2: hanging } = await startGatewayInFrontOfMisbehavingApi2(cleanup, neverAnswers, {
      routes: { 'recipes.search': { mode: 'shadow' } },
      traffic: { shadow: { timeoutMs: 60_000 } },
    });
    const res = await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J });
    expect(res.status).toBe(200);
    await waitFor(() => hanging.seen.length === 1);
    expect(gateway.shadows).toHaveLength(0);
  });

  it('never sends a write to api2', async () => {
    const { gateway, seen } = await rig(Object.fromEntries(Object.keys(MAPPED_ROUTES).map((id) => [id, { mode: 'shadow' as const }])));
    const user = { ...J, authorization: ALICE, 'content-type': 'application/json' };
    const created = await send(gateway.origin, { method: 'POST', target: `/reviews?api_key=${FREE}`, headers: user, body: JSON.stringify({ rid: 9, rating: 4, makeagain: 'yes', message: 'ok' }) });
    expect(created.status).toBe(200);
    const id = (created.json() as { ReviewID: number }).ReviewID;
    await send(gateway.origin, { method: 'PUT', target: `/review/${id}?api_key=${FREE}`, headers: user, body: JSON.stringify({ rid: 9, rating: 2, makeagain: 'no', message: 'meh' }) });
    await send(gateway.origin, { method: 'DELETE', target: `/review/${id}?api_key=${FREE}`, headers: user });
    const item = await send(gateway.origin, { method: 'POST', target: `/grocerylist?api_key=${FREE}`, headers: user, body: '{"quantity":"1","name":"salt"}' });
    await send(gateway.origin, { method: 'POST', target: `/grocerylist/${(item.json() as { ItemID: number }).ItemID}?api_key=${FREE}`, headers: user, body: '{"quantity":"2","name":"salt"}' });
    await send(gateway.origin, { method: 'DELETE', target: `/grocerylist${(item.json() as { ItemID: number }).ItemID}?api_key=${FREE}`, headers: user });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(gateway.records.filter((r) => r.method !== 'GET').every((r) => r.mode === 'legacy')).toBe(true);
  });
});

describe('fallback and breaker', () => {
  const failingApi2Rig = (fallback: boolean, cache = false) =>
    startGatewayWithApi2Down(cleanup, { 'recipes.search': { mode: 'api2', fallback }, 'grocery.create': { mode: 'api2', fallback } }, { cache });

  it('answers a safe operation from legacy when api2 fails, and never falls back a write', async () => {
    const { gateway } = await failingApi2Rig(true);
    const read = await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J });
    expect(read.status).toBe(200);
    expect(gateway.records.at(-1)).toMatchObject({ mode: 'legacy', fallback: true, routeMode: 'api2' });
    const write = await createGroceryItem(gateway.origin);
    expect(write.status).toBe(502);
    expect(gateway.records.at(-1)).toMatchObject({ mode: 'api2' });
    expect(gateway.records.at(-1)?.fallback).toBeUndefined();
  });

  it('opens the api2 breaker after consecutive failures: no more api2 calls, 503 without fallback', async () => {
    const { gateway, failing } = await failingApi2Rig(false);
    for (let i = 0; i < 3; i++) expect((await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J })).status).toBe(502);
    const open = await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J });
    expect(open.status).toBe(503);
    expect(open.headers['x-gateway-error']).toBe('upstream-unavailable');
    expect((open.json() as { Message: string }).Message).toContain('circuit breaker is open');
    expect(failing.seen).toHaveLength(3);
  });

  it('falls back while the breaker is open, when the route says so', async () => {
    const { gateway, failing } = await failingApi2Rig(true);
    for (let i = 0; i < 5; i++) expect((await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J })).status).toBe(200);
    expect(failing.seen).toHaveLength(3);
    expect(gateway.records.slice(-2).every((r) => r.fallback === true && r.mode === 'legacy')).toBe(true);
  });

  it('sends a write to legacy while the breaker is open, when the route says fallback: it never reached api2', async () => {
    const { gateway, failing } = await failingApi2Rig(true);
    for (let i = 0; i < 3; i++) expect((await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J })).status).toBe(200);
    expect(failing.seen).toHaveLength(3);
    const write = await createGroceryItem(gateway.origin);
    expect(write.status).toBe(200);
    expect(failing.seen).toHaveLength(3);
    expect(gateway.records.at(-1)).toMatchObject({ operation: 'grocery.create', mode: 'legacy', routeMode: 'api2' });
  });

  it('answers a write 503 while the breaker is open on a route without fallback', async () => {
    const { gateway, failing } = await failingApi2Rig(false);
    for (let i = 0; i < 3; i++) expect((await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J })).status).toBe(502);
    const write = await createGroceryItem(gateway.origin);
    expect(write.status).toBe(503);
    expect(failing.seen).toHaveLength(3);
  });

  it('never stores a fallback page under the api2 key: no HIT is recorded as api2 answering with legacy bytes', async () => {
    // Stored, legacy's page was served as HITs recorded mode api2 (usage log, report, rollout counters).
    const { gateway, failing } = await failingApi2Rig(true, true);
    for (let i = 0; i < 3; i++) {
      const answered = await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J });
      expect(answered.status).toBe(200);
      expect(answered.headers['x-cache']).toBe('MISS');
      expect(gateway.records.at(-1)).toMatchObject({ operation: 'recipes.search', mode: 'legacy', fallback: true, routeMode: 'api2' });
    }
    expect(failing.seen).toHaveLength(3);
  });
});

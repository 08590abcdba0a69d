/**
 * The search page cache through a real gateway: single-flight under a stampede, freshness
 * (stale-while-revalidate, stale-if-error) against an upstream that changes and then fails,
 * bypass, no page for an unknown or free key, no user's bookmarks for another, bounds.
 */
import { describe, expect, it } from 'vitest';
import { PageCache } from '../src/cache/page-cache.js';
import type { StoredAnswer } from '../src/cache/types.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { basic, send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { closedAfterEachTest } from './support/cleanup.js';

const J = { accept: 'application/json' };
const cleanup = closedAfterEachTest();

/** An upstream whose search page says which version of the data it is, and can be told to fail. */
async function changingUpstream(delayMs = 0) {
  const state = { version: 1, failing: false };
  const upstream = await startRecordingUpstream((req, res) => {
    setTimeout(() => {
      if (state.failing) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"Message":"down"}');
        return;
      }
      const key = new URLSearchParams((req.url ?? '').split('?')[1]).get('api_key');
      if (key === 'bad-key') {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end('{"Message":"unknown api_key"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', vary: 'Accept' });
      res.end(JSON.stringify({ ResultCount: state.version, Results: [], SpellSuggest: null }));
    }, delayMs);
  });
  cleanup.push(() => upstream.close());
  return { upstream, state };
}

async function gatewayFor(upstream: RecordingUpstream | string, overrides = {}): Promise<TestGateway> {
  const gateway = await startTestGateway(typeof upstream === 'string' ? upstream : upstream.origin, overrides);
  cleanup.push(() => gateway.close());
  return gateway;
}

const search = (gateway: TestGateway, target = '/recipes?title_kw=soup&api_key=good-key', headers: Record<string, string> = J) =>
  send(gateway.origin, { target, headers });
const version = (res: { json(): unknown }) => (res.json() as { ResultCount: number }).ResultCount;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('search page cache', () => {
  it('answers 50 concurrent misses on one key with one upstream call', async () => {
    // The upstream answers slowly enough that all 50 arrive while the first fill is still out,
    // even on a loaded machine.
    const { upstream } = await changingUpstream(1500);
    const gateway = await gatewayFor(upstream);
    const answers = await Promise.all(Array.from({ length: 50 }, () => search(gateway)));
    expect(answers.every((res) => res.status === 200 && version(res) === 1)).toBe(true);
    expect(upstream.requests).toHaveLength(1);
    expect(answers.filter((res) => res.headers['x-cache'] === 'MISS')).toHaveLength(50);
    const again = await search(gateway, '/v1/recipes/?api_key=good-key&title_kw=soup&pg=1');
    expect(again.headers['x-cache']).toBe('HIT');
    expect(upstream.requests).toHaveLength(1);
  });

  it('serves stale while revalidating, then the new page; serves stale when the upstream fails', async () => {
    const { upstream, state } = await changingUpstream();
    const gateway = await gatewayFor(upstream, {
      // Windows wide enough for a loaded machine: fresh 400 ms, then stale-while-revalidate 1.6 s.
      routes: { 'recipes.search': { cache: { ttlMs: 400, staleWhileRevalidateMs: 1600, staleIfErrorMs: 20000 } } },
    });
    expect((await search(gateway)).headers['x-cache']).toBe('MISS');
    expect((await search(gateway)).headers['x-cache']).toBe('HIT');
    state.version = 2;
    await sleep(500);
    const stale = await search(gateway);
    expect(stale.headers['x-cache']).toBe('STALE');
    expect(version(stale)).toBe(1);
    await sleep(150);
    const refreshed = await search(gateway);
    expect(refreshed.headers['x-cache']).toBe('HIT');
    expect(version(refreshed)).toBe(2);

    state.failing = true;
    await sleep(2100);
    const rescued = await search(gateway);
    expect(rescued.status).toBe(200);
    expect(rescued.headers['x-cache']).toBe('STALE');
    expect(version(rescued)).toBe(2);
    expect(gateway.records.at(-1)).toMatchObject({ operation: 'recipes.search', cache: 'STALE' });
  });

  it('passes the failure on when there is nothing stale to serve', async () => {
    const { upstream, state } = await changingUpstream();
    state.failing = true;
    const gateway = await gatewayFor(upstream);
    const res = await search(gateway);
    expect(res.status).toBe(503);
    expect(res.headers['x-cache']).toBe('MISS');
  });

  it('bypasses the stored page for Cache-Control: no-cache, and stores the fresh answer', async () => {
    const { upstream, state } = await changingUpstream();
    const gateway = await gatewayFor(upstream);
    await search(gateway);
    state.version = 7;
    const bypass = await search(gateway, undefined, { ...J, 'cache-control': 'no-cache' });
    expect(bypass.headers['x-cache']).toBe('BYPASS');
    expect(version(bypass)).toBe(7);
    const next = await search(gateway);
    expect(next.headers['x-cache']).toBe('HIT');
    expect(version(next)).toBe(7);
    expect(upstream.requests).toHaveLength(2);
  });

  it('never serves a stored page to an api key the upstream has not accepted', async () => {
    const { upstream } = await changingUpstream();
    const gateway = await gatewayFor(upstream);
    expect((await search(gateway)).status).toBe(200);
    const refused = await search(gateway, '/recipes?title_kw=soup&api_key=bad-key');
    expect(refused.status).toBe(403);
    expect(refused.headers['x-cache']).toBe('MISS');
    expect(upstream.requests).toHaveLength(2);
  });

  it('stays within its entry bound and evicts the least recently used', async () => {
    const { upstream } = await changingUpstream();
    const gateway = await gatewayFor(upstream, { cache: { maxEntries: 2 } });
    for (const word of ['a', 'b', 'c']) await search(gateway, `/recipes?title_kw=${word}&api_key=good-key`);
    expect((await search(gateway, '/recipes?title_kw=c&api_key=good-key')).headers['x-cache']).toBe('HIT');
    expect((await search(gateway, '/recipes?title_kw=a&api_key=good-key')).headers['x-cache']).toBe('MISS');
  });

  it('can be switched off', async () => {
    const { upstream } = await changingUpstream();
    const gateway = await gatewayFor(upstream, { cache: { enabled: false } });
    await search(gateway);
    const second = await search(gateway);
    expect(second.headers['x-cache']).toBeUndefined();
    expect(upstream.requests).toHaveLength(2);
  });
});

describe('search page cache and users', () => {
  it('never shows one user another user\'s bookmarks, nor a wrong password the right one\'s page', async () => {
    const sandbox = await startLegacySandbox();
    cleanup.push(() => sandbox.close());
    const gateway = await gatewayFor(sandbox.origin);
    const alice = basic('alice', 'alice-pass');
    const bob = basic('bob', 'bob-pass');
    const bookmarks = (res: { json(): unknown }) =>
      (res.json() as { Results: Array<{ RecipeID: number; IsBookmark: boolean | null }> }).Results.filter((r) => r.IsBookmark).map((r) => r.RecipeID);
    const target = '/recipes?rpp=50&api_key=sandbox-free-key';
    const direct = async (auth: string) => bookmarks(await send(sandbox.origin, { target, headers: { ...J, authorization: auth } }));
    const firstPage = (await send(sandbox.origin, { target, headers: J }).then((r) => r.json())) as { Results: Array<{ RecipeID: number }> };
    const favorite = (auth: string, rid: number | undefined) =>
      send(sandbox.origin, { method: 'POST', target: '/favorites?api_key=sandbox-free-key', headers: { ...J, authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ rid }) });
    await favorite(alice, firstPage.Results[0]?.RecipeID);
    await favorite(bob, firstPage.Results[1]?.RecipeID);

    const aliceFirst = await send(gateway.origin, { target, headers: { ...J, authorization: alice } });
    const bobFirst = await send(gateway.origin, { target, headers: { ...J, authorization: bob } });
    const aliceAgain = await send(gateway.origin, { target, headers: { ...J, authorization: alice } });
    const bobAgain = await send(gateway.origin, { target, headers: { ...J, authorization: bob } });
    const anonymous = await send(gateway.origin, { target, headers: J });
    expect(aliceAgain.headers['x-cache']).toBe('HIT');
    expect(bobAgain.headers['x-cache']).toBe('HIT');
    expect(bookmarks(aliceFirst)).toEqual(await direct(alice));
    expect(bookmarks(aliceAgain)).toEqual(await direct(alice));
    expect(bookmarks(bobFirst)).toEqual(await direct(bob));
    expect(bookmarks(bobAgain)).toEqual(await direct(bob));
    expect(bookmarks(anonymous)).toEqual([]);
    expect(bookmarks(aliceAgain)).not.toEqual(bookmarks(bobAgain));

    const wrong = await send(gateway.origin, { target, headers: { ...J, authorization: basic('alice', 'guess') } });
    expect(wrong.status).toBe(403);
  });

  it('never serves a page with paid filters to a free key, even after a paid key filled it', async () => {
    const sandbox = await startLegacySandbox();
    cleanup.push(() => sandbox.close());
    const gateway = await gatewayFor(sandbox.origin);
    const paid = await send(gateway.origin, { target: '/recipes?cuisine=italian&api_key=sandbox-paid-key', headers: J });
    expect(paid.status).toBe(200);
    await send(gateway.origin, { target: '/recipes?api_key=sandbox-free-key', headers: J });
    const free = await send(gateway.origin, { target: '/recipes?cuisine=italian&api_key=sandbox-free-key', headers: J });
    expect(free.status).toBe(403);
  });

  it('drops search pages when a review written through the gateway changes them', async () => {
    const sandbox = await startLegacySandbox();
    cleanup.push(() => sandbox.close());
    const gateway = await gatewayFor(sandbox.origin);
    const target = '/recipes?title_kw=soup&rpp=1&api_key=sandbox-free-key';
    const before = (await send(gateway.origin, { target, headers: J })).json() as { Results: Array<{ RecipeID: number; ReviewCount: number }> };
    const recipe = before.Results[0];
    expect(recipe).toBeDefined();
    const review = await send(gateway.origin, {
      method: 'POST',
      target: '/reviews?api_key=sandbox-free-key',
      headers: { ...J, authorization: basic('bob', 'bob-pass'), 'content-type': 'application/json' },
      body: JSON.stringify({ rid: recipe?.RecipeID, rating: 5, makeagain: 'yes', message: 'fresh' }),
    });
    expect(review.status).toBe(200);
    const after = await send(gateway.origin, { target, headers: J });
    expect(after.headers['x-cache']).toBe('MISS');
    expect((after.json() as { Results: Array<{ ReviewCount: number }> }).Results[0]?.ReviewCount).toBe((recipe?.ReviewCount ?? 0) + 1);
  });
});

describe('page cache bounds', () => {
  const answer = (bytes: number): StoredAnswer => ({ status: 200, headers: { 'content-type': 'application/json' }, setCookie: [], body: new Uint8Array(bytes) });
  const policy = { ttlMs: 60_000, staleWhileRevalidateMs: 0, staleIfErrorMs: 0 };
  const put = (cache: PageCache, key: string, bytes: number) =>
    cache.serve({ key, flightKey: key, policy, bypass: false, mayReadStored: true, group: null, source: { produce: async () => answer(bytes), refresh: async () => answer(bytes) }, learn: () => undefined, storable: () => true });

  it('never holds more bytes than its byte bound, counting evictions', async () => {
    const cache = new PageCache({ maxEntries: 1_000_000, maxBytes: 64 * 1024 });
    for (let i = 0; i < 500; i++) {
      await put(cache, `page-${i}`, 1000);
      expect(cache.size.bytes).toBeLessThanOrEqual(64 * 1024);
    }
    expect(cache.size.entries).toBeGreaterThan(10);
    expect(cache.counters.evicted).toBe(500 - cache.size.entries);
  });

  it('does not store a page larger than the whole cache', async () => {
    const cache = new PageCache({ maxEntries: 10, maxBytes: 4096 });
    await put(cache, 'huge', 10_000);
    expect(cache.size.entries).toBe(0);
  });
});

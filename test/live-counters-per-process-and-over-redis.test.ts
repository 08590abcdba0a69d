/**
 * The live migration counters (src/migration/live-counters.ts) that the console, the metrics and
 * the rollout controller read: per operation and side, requests, 4xx and 5xx apart (an api2 409
 * not-mappable refusal is an api2 4xx), p50/p95, fallbacks, shadow comparisons and api2 breaker
 * opens, over the window asked; fed by a real gateway; summed over two replicas through a real
 * redis-server, and this replica's own counts (said so) when Redis is gone.
 */
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/catalogue/operations.js';
import type { RequestRecord } from '../src/gateway/request-record.js';
import { createLiveCounters } from '../src/migration/live-counters.js';
import type { ShadowRecord } from '../src/traffic/shadow.js';
import { basic, send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import { redisOverrides, startReplicas } from './support/fleet.js';
import { startTestRedis } from './support/redis-server.js';
import { startGatewayWithApi2Down } from './support/misbehaving-api2.js';
import { waitFor } from './support/wait.js';
import { closedAfterEachTest } from './support/cleanup.js';

const J = { accept: 'application/json' };
const FREE = 'sandbox-free-key';
const ALICE = basic('alice', 'alice-pass');
const cleanup = closedAfterEachTest();

function record(fields: Partial<RequestRecord>): RequestRecord {
  return { requestId: 'r', startedAt: 0, method: 'GET', operation: 'recipes.search', insecure: false, mode: 'legacy', status: 200, latencyMs: 3, ...fields };
}
const shadow = (outcome: ShadowRecord['outcome']): ShadowRecord => ({ kind: 'shadow', time: '', requestId: 'r', operation: 'reviews.get', outcome });

describe('live counters in one process', () => {
  it('count per operation and side, 4xx and 5xx apart, p50/p95 from fixed buckets, fallbacks, shadow and breaker opens', async () => {
    let now = 1_000_000;
    const live = createLiveCounters({ bucketMs: 1000, keepBuckets: 60, now: () => now });
    for (let i = 0; i < 18; i++) live.recordRequest(record({ mode: 'api2', latencyMs: 4 }));
    live.recordRequest(record({ mode: 'api2', status: 409, latencyMs: 400 }));
    live.recordRequest(record({ mode: 'api2', status: 502, latencyMs: 2500 }));
    live.recordRequest(record({ mode: 'legacy', fallback: true, routeMode: 'api2' }));
    live.recordRequest(record({ operation: 'uncatalogued' }));
    live.recordRequest(record({ operation: null, mode: undefined, status: 400 }));
    live.recordRequest(record({ operation: 'favorites.list', mode: undefined, status: 400 })); // the gateway answered itself
    for (const outcome of ['equal', 'equal', 'differ', 'skipped'] as const) live.recordShadow(shadow(outcome));
    live.recordBreaker('api2', 'open');
    live.recordBreaker('legacy', 'open');

    const w = await live.window(now - 10_000);
    expect(w.scope).toBe('replica');
    const search = w.operations.get('recipes.search');
    expect(search?.api2).toEqual({ requests: 20, status4xx: 1, status5xx: 1, p50Ms: 5, p95Ms: 500 });
    expect(search?.legacy).toMatchObject({ requests: 1, status4xx: 0, status5xx: 0 });
    expect(search?.fallbacks).toBe(1);
    expect(w.operations.get('reviews.get')?.shadow).toEqual({ compared: 3, agreed: 2, differed: 1, raced: 0, unavailable: 0, skipped: 1 });
    expect(w.operations.get('favorites.list')).toMatchObject({ legacy: { requests: 0, p95Ms: null }, api2: { requests: 0 } });
    expect(w.operations.size, 'every catalogued operation has its row').toBe(OPERATIONS.length);
    expect(w.api2BreakerOpens).toBe(1);
    expect(w.api2BreakerState).toBe('open');
  });

  it('answers only the window asked, and forgets what is older than its span', async () => {
    let now = 1_000_000;
    const live = createLiveCounters({ bucketMs: 1000, keepBuckets: 10, now: () => now });
    live.recordRequest(record({}));
    now += 5_000;
    live.recordRequest(record({}));
    live.recordRequest(record({}));
    expect((await live.window(now - 2_000)).operations.get('recipes.search')?.legacy.requests).toBe(2);
    expect((await live.window(now - 10_000)).operations.get('recipes.search')?.legacy.requests).toBe(3);
    now += 6_000;
    const late = await live.window(0);
    expect(late.operations.get('recipes.search')?.legacy.requests).toBe(2);
    expect(late.fromMs).toBeGreaterThan(now - 10_001);
  });
});

describe('live counters fed by a gateway', () => {
  it('count fallbacks, the api2 breaker opening, a 409 not-mappable answer as api2 4xx, and a shadow comparison', async () => {
    const { gateway } = await startGatewayWithApi2Down(cleanup, {
      'recipes.search': { mode: 'api2', fallback: true },
      'reviews.delete': { mode: 'api2' },
      'reviews.get': { mode: 'shadow' },
    });
    const since = Date.now() - 1;
    for (let i = 0; i < 5; i++) expect((await send(gateway.origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: J })).status).toBe(200);
    const refused = await send(gateway.origin, { method: 'DELETE', target: `/review/777777?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    expect(refused.status).toBe(409);
    await send(gateway.origin, { target: `/review/1?api_key=${FREE}`, headers: J });
    await waitFor(() => gateway.shadows.length === 1);

    const w = await gateway.live.window(since);
    expect(w.scope).toBe('replica');
    expect(w.operations.get('recipes.search')).toMatchObject({ legacy: { requests: 5 }, api2: { requests: 0 }, fallbacks: 5 });
    expect(w.operations.get('reviews.delete')?.api2).toMatchObject({ requests: 1, status4xx: 1, status5xx: 0 });
    expect(w.operations.get('reviews.get')?.legacy.requests).toBe(1);
    // api2 answers 503 (then fails fast): api2 was unavailable, not differing (issue 45), as the shadow record says.
    expect(gateway.shadows[0]?.outcome).toBe('unavailable');
    expect(w.operations.get('reviews.get')?.shadow).toEqual({ compared: 0, agreed: 0, differed: 0, raced: 0, unavailable: 1, skipped: 0 });
    expect(w.api2BreakerOpens).toBe(1);
    expect(w.api2BreakerState).toBe('open');
  });
});

describe('live counters over a real redis-server', () => {
  it("sum both replicas' traffic in either replica's window, and fall back to the replica's own counts when Redis is gone", async () => {
    const redis = await startTestRedis();
    cleanup.push(() => redis.close());
    const upstream = await startRecordingUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"ResultCount":0,"Results":[],"SpellSuggest":null}');
    });
    cleanup.push(() => upstream.close());
    const [a, b] = await startReplicas(upstream.origin, { ...redisOverrides(redis), cache: { enabled: false, redis: redisOverrides(redis).cache?.redis } });
    cleanup.push(() => a.close(), () => b.close());
    const since = Date.now() - 1;
    const search = (origin: string) => send(origin, { target: `/recipes?title_kw=soup&api_key=${FREE}`, headers: { ...J, host: 'api.bigoven.com' } });
    for (let i = 0; i < 3; i++) expect((await search(a.origin)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await search(b.origin)).status).toBe(200);
    expect(a.live.scope).toBe('fleet');

    // A window sends this replica's own increments first; the others' arrive within their flushMs (1 s).
    await a.live.window(since);
    const fromB = await b.live.window(since);
    const fromA = await a.live.window(since);
    for (const w of [fromA, fromB]) {
      expect(w.scope).toBe('fleet');
      expect(w.operations.get('recipes.search')?.legacy.requests).toBe(5);
    }

    await redis.kill();
    const alone = await a.live.window(since);
    expect(alone.scope).toBe('replica');
    expect(alone.operations.get('recipes.search')?.legacy.requests).toBe(3);
  });
});

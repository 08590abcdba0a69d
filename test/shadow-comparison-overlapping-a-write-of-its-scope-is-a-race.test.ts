/**
 * Through a real gateway (legacy sandbox; a slow api2 front, so that a comparison lasts), a shadow
 * comparison that a write of its scope overlapped is recorded as a race, counted apart in the live
 * counters (raced, not compared): a review write (it drops every page) races any search; a
 * favorites write (it drops its user's pages) races that user's searches and no one else's; in a
 * fleet, a write answered by another replica races too (heard through the shared cache tier).
 */
import { expect, it } from 'vitest';
import { PLACEHOLDER_PHOTO_URL } from '../src/sandbox/dataset/dataset.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { startApi2Front } from './support/api2-front.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { basic, send } from './support/http.js';
import { closedAfterEachTest } from './support/cleanup.js';
import { waitFor } from './support/wait.js';
import { redisOverrides, waitReady } from './support/fleet.js';
import { startTestRedis } from './support/redis-server.js';
import type { GatewayConfigInput } from '../src/config/schema.js';

const cleanup = closedAfterEachTest();
const KEY = 'api_key=sandbox-free-key';
const ALICE = basic('alice', 'alice-pass');

async function rig(replicas = 1, extra: Partial<GatewayConfigInput> = { cache: { enabled: false } }): Promise<TestGateway[]> {
  const legacy = await startLegacySandbox();
  cleanup.push(() => legacy.close());
  const front = await startApi2Front();
  cleanup.push(() => front.close());
  front.mode = 'slow';
  front.slowMs = 600;
  const gateways: TestGateway[] = [];
  for (let i = 0; i < replicas; i++) {
    const gateway = await startTestGateway(legacy.origin, {
      upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: front.origin, caFile: front.caFile } },
      api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
      routes: { 'recipes.search': { mode: 'shadow' } },
      traffic: { shadow: { timeoutMs: 5_000 } },
      ...extra,
    });
    cleanup.push(() => gateway.close());
    gateways.push(gateway);
  }
  return gateways;
}

/** One search (as `user`, or anonymous) compared while `write` is sent every 100 ms; its comparison's record. */
async function searchDuringWrites(gateway: TestGateway, user: string | undefined, write: () => Promise<unknown>, words = 'soup') {
  let writing = true;
  const writes = (async () => {
    while (writing) {
      await write();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const headers: Record<string, string> = { accept: 'application/json', ...(user ? { authorization: user } : {}) };
  const before = gateway.shadows.length;
  try {
    expect((await send(gateway.origin, { target: `/recipes?title_kw=${words}&rpp=5&${KEY}`, headers })).status).toBe(200);
    await waitFor(() => gateway.shadows.length > before, 8_000, 'the comparison');
  } finally {
    writing = false;
    await writes;
  }
  return gateway.shadows[before]!;
}

const reviewWrite = (gateway: TestGateway) => () =>
  send(gateway.origin, { method: 'POST', target: `/reviews?${KEY}`, headers: { authorization: ALICE, 'content-type': 'application/json' }, body: JSON.stringify({ rid: 1, rating: 4, makeagain: 'yes', message: 'raced' }) });
const favoriteWrite = (gateway: TestGateway) => () => send(gateway.origin, { method: 'POST', target: `/favorites?rid=1&${KEY}`, headers: { authorization: ALICE } });

it('records a comparison that writes dropping every page overlapped as a race, counted apart from agreement', async () => {
  const [gateway] = (await rig()) as [TestGateway];
  const record = await searchDuringWrites(gateway, undefined, reviewWrite(gateway));
  expect(record).toMatchObject({ operation: 'recipes.search', outcome: 'race' });
  const counts = (await gateway.live.window(0)).operations.get('recipes.search')!;
  expect(counts.shadow).toMatchObject({ raced: 1, compared: 0, agreed: 0, differed: 0 });
  // With no write, the same search is compared.
  const quiet = await searchDuringWrites(gateway, undefined, async () => undefined);
  expect(quiet.outcome).toBe('equal');
}, 30_000);

it("a user's favorites writes race that user's searches, never another's", async () => {
  const [gateway] = (await rig()) as [TestGateway];
  const anonymous = await searchDuringWrites(gateway, undefined, favoriteWrite(gateway));
  expect(anonymous.outcome).toBe('equal');
  const bob = await searchDuringWrites(gateway, basic('bob', 'bob-pass'), favoriteWrite(gateway));
  expect(bob.outcome).toBe('equal');
  const alice = await searchDuringWrites(gateway, ALICE, favoriteWrite(gateway));
  expect(alice.outcome).toBe('race');
}, 30_000);

it('in a fleet, a write answered by another replica races the comparisons of its scope', async () => {
  const redis = await startTestRedis();
  cleanup.push(() => redis.close());
  const [a, b] = (await rig(2, { cache: { enabled: true, ...redisOverrides(redis).cache } })) as [TestGateway, TestGateway];
  await Promise.all([waitReady(a), waitReady(b)]);
  const quiet = await searchDuringWrites(b, undefined, async () => undefined, 'salad');
  expect(quiet.outcome).toBe('equal');
  const raced = await searchDuringWrites(b, undefined, reviewWrite(a), 'cake');
  expect(raced.outcome).toBe('race');
  expect(b.records.filter((r) => r.operation === 'reviews.create')).toEqual([]);
}, 40_000);

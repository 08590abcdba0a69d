/**
 * The cache tier contract (test/support/cache-tier-contract.ts) run by the tiers that live in the
 * test's own process: the null tier, the memory tier (L1) and the Redis tier over a real
 * redis-server. The cluster workers' tier and the Workers Cache API tier run it in their own
 * runtimes (cluster-workers-tier-keeps-the-cache-tier-contract, edge-cache-api-tier-keeps-...).
 *
 * The memory tier is not a CacheTier: it is the L1 inside the page cache, with its own API
 * (get/put/dropGroup/dropAll, an epoch where the port has a stamp). It runs the contract through
 * `asPort` below, which only renames: the epoch read when a fill starts is the stamp its write
 * hands back. One process's L1 has no replicas: both "replicas" are the same tier.
 */
import { beforeAll } from 'vitest';
import { MemoryTier } from '../src/cache/memory-tier.js';
import { NULL_TIER } from '../src/cache/null-tier.js';
import type { CacheTier } from '../src/cache/tier.js';
import { startRedisFleet } from '../src/node/fleet/redis-fleet.js';
import type { Fleet } from '../src/node/fleet/fleet.js';
import { describeCacheTierContract } from './support/cache-tier-contract.js';
import { closedAfterAllTests } from './support/cleanup.js';
import { freePort } from './support/started-process.js';
import { startTestRedis } from './support/redis-server.js';
import type { TestRedis } from './support/redis-server.js';
import { waitFor } from './support/wait.js';

const alone = { tellsReplicas: 'never', answersAtOnce: true, currentStamp: false, invalidationWhenOut: 'never out', remembersFacts: false, locks: false } as const;

describeCacheTierContract('the null tier', { ...alone, storesPages: false }, async () => ({ a: NULL_TIER, b: NULL_TIER, out: undefined, close: async () => {} }));

function asPort(memory: MemoryTier): CacheTier {
  return {
    lockTtlMs: 0,
    read: (key) => ({ entry: memory.get(key), trusted: false, stamp: String(memory.epoch) }),
    write: (key, group, entry, stamp) => void memory.put(key, group, entry, undefined, Number(stamp)),
    lock: () => 'out',
    locked: async () => false,
    remember: () => undefined,
    invalidateAll: async () => (memory.dropAll(), true),
    invalidateGroup: async (group) => (memory.dropGroup(group), true),
    onInvalidate: () => () => undefined,
  };
}
describeCacheTierContract('the memory tier (L1)', { ...alone, storesPages: true }, async () => {
  const l1 = asPort(new MemoryTier({ maxEntries: 100, maxBytes: 1 << 20, now: Date.now, onEvicted: () => undefined }));
  return { a: l1, b: l1, out: undefined, close: async () => {} };
});

let redis: TestRedis;
const closeAfterAll = closedAfterAllTests();
beforeAll(async () => {
  redis = await startTestRedis();
  closeAfterAll.push(() => redis.close());
});

const LOCK_TTL_MS = 300;
let prefix = 0;
/** A replica's tier as the gateway wires it (src/node/fleet/redis-fleet.ts: breaker, probe, resubscribe), up. */
async function replica(url: string, keyPrefix: string): Promise<Fleet & { tier: CacheTier }> {
  const settings = { url, keyPrefix, required: false, commandTimeoutMs: 2_000, connectTimeoutMs: 2_000, retryMs: 50, lockTtlMs: LOCK_TTL_MS, maxEntryBytes: 1 << 20 };
  const fleet = startRedisFleet(settings, 'contract-test-hash-key', () => undefined);
  if (!fleet.tier) throw new Error('no tier');
  return fleet as Fleet & { tier: CacheTier };
}

describeCacheTierContract('the Redis tier', { storesPages: true, remembersFacts: true, locks: true, tellsReplicas: 'soon-after', answersAtOnce: false, currentStamp: true, invalidationWhenOut: false }, async () => {
  const keyPrefix = `contract${++prefix}:`;
  const [a, b] = await Promise.all([replica(redis.url, keyPrefix), replica(redis.url, keyPrefix)]);
  const out = await replica(`redis://127.0.0.1:${await freePort()}`, keyPrefix);
  await waitFor(() => a.status()?.up === true && b.status()?.up === true, 10_000, 'both replicas up');
  // Both subscribed: each hears the other's invalidation (before any test listener is attached).
  for (const [from, to] of [[a, b], [b, a]] as const) {
    let heard = false;
    const detach = to.tier.onInvalidate(() => (heard = true));
    await waitFor(async () => (await from.tier.invalidateAll(), heard), 10_000, 'subscribed');
    detach();
  }
  return { a: a.tier, b: b.tier, out: out.tier, close: async () => void (await Promise.all([a.close(), b.close(), out.close()])) };
});

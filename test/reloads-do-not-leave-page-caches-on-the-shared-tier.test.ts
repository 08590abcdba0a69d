/**
 * A reload that changes the cache config builds a new page cache; the one it replaces must let go
 * of the shared (Redis) tier once its generation is retired, or every such reload leaves a whole
 * page cache held by the tier's listeners for the life of the process (and each invalidation
 * walks them all). Over a real redis-server, the tier's live listeners are counted at its port.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { CacheTier } from '../src/cache/tier.js';
import { startRedisFleet } from '../src/node/fleet/redis-fleet.js';
import { Generations } from '../src/node/generations.js';
import { nodeRuntime } from '../src/node/runtime.js';
import { FLEET_HASH_KEY, redisOverrides } from './support/fleet.js';
import { startTestRedis } from './support/redis-server.js';
import { closedAfterEachTest } from './support/cleanup.js';

const cleanup = closedAfterEachTest();

/** The tier as it is, counting the listeners attached through it and not yet detached. */
function counted(tier: CacheTier): { tier: CacheTier; live: () => number } {
  let live = 0;
  const attach = (detach: () => void): (() => void) => {
    live += 1;
    let done = false;
    return () => {
      if (!done) live -= 1;
      done = true;
      detach();
    };
  };
  const wrapped = new Proxy(tier, {
    get(target, prop) {
      if (prop === 'onInvalidate') return (listener: (group: string | null) => void) => attach(target.onInvalidate(listener));
      if (prop === 'onResync') return target.onResync ? (listener: () => void) => attach(target.onResync!(listener)) : undefined;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { tier: wrapped, live: () => live };
}

describe('reloads and the shared cache tier', () => {
  it('after N reloads that change the cache config, the tier holds one page cache\'s listeners, not N+1', async () => {
    const redis = await startTestRedis();
    cleanup.push(() => redis.close());
    const config = (maxEntries: number) => {
      const parsed = parseConfig({
        listen: { host: '127.0.0.1', port: 0 },
        upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' } },
        observability: { log: { destination: '/dev/null' } },
        ...redisOverrides(redis),
        cache: { ...redisOverrides(redis).cache, maxEntries },
      });
      if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
      return parsed.config;
    };
    const first = config(1_000);
    const fleet = startRedisFleet(first.cache.redis!, FLEET_HASH_KEY, () => undefined);
    cleanup.push(() => fleet.close());
    const { tier, live } = counted(fleet.tier!);
    const generations = await Generations.start(first, { runtime: nodeRuntime }, { ...fleet, tier });
    cleanup.push(() => generations.close());
    const perCache = live();
    expect(perCache).toBeGreaterThan(0);

    const reloads = 5;
    for (let i = 1; i <= reloads; i += 1) await generations.reload(config(1_000 + i));

    // Retirement runs after each reload returns (the old generation drains first; nothing is in flight here).
    const deadline = Date.now() + 10_000;
    while (live() !== perCache && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(live()).toBe(perCache);
  });
});

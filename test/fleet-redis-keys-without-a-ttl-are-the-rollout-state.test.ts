/**
 * Why Redis's `volatile-lru` keeps a rollout: every key the gateway writes to Redis carries a TTL
 * (evictable cache) except the rollout's own keys and the page generation, which must never be
 * evicted. A cache key written without a TTL would fill Redis past eviction; a rollout key with one
 * could be evicted and undo a rollback (docs/fleet.md).
 */
import { describe, expect, it } from 'vitest';
import { closedAfterEachTest } from './support/cleanup.js';
import { redisOverrides, waitReady } from './support/fleet.js';
import { startTestGateway } from './support/gateway.js';
import { basic, send } from './support/http.js';
import { positionOf, rolloutConfig, startFleetUpstreams, traffic, until } from './support/rollout.js';

const cleanup = closedAfterEachTest();
const PREFIX = 'ttl-test:';
/** The keys kept without a TTL, on purpose. */
const KEPT = [/^v1:rollout:s:[a-z.]+$/, /^v1:rollout:events$/, /^v1:rollout:evaluation$/, /^v1:gen$/];

describe('the keys the gateway writes to Redis', () => {
  it('all carry a TTL but the rollout state and the page generation', async () => {
    const { redis, legacyOrigin, front } = await startFleetUpstreams(cleanup);
    const fleet = redisOverrides(redis, { required: false, keyPrefix: PREFIX });
    const gateway = await startTestGateway(legacyOrigin, rolloutConfig(front, legacyOrigin, { cache: { enabled: true, ...fleet.cache } }));
    cleanup.push(() => gateway.close());
    await waitReady(gateway);
    const load = traffic([gateway]);
    cleanup.push(() => load.stop());
    await until('5 %', () => positionOf(gateway) === 5);
    const alice = { authorization: basic('alice', 'alice-pass'), accept: 'application/json' };
    expect((await send(gateway.origin, { method: 'POST', target: '/reviews?api_key=sandbox-free-key', headers: { ...alice, 'content-type': 'application/x-www-form-urlencoded' }, body: 'rid=1&rating=5&makeagain=yes&message=ttl' })).status).toBe(200);
    expect((await send(gateway.origin, { method: 'POST', target: '/favorites?api_key=sandbox-free-key', headers: { ...alice, 'content-type': 'application/x-www-form-urlencoded' }, body: 'rid=2' })).status).toBeLessThan(300);
    await load.stop();

    const client = redis.client();
    const keys = (await client.keys(`${PREFIX}*`)).map((key) => key.slice(PREFIX.length)).sort();
    const ttls = await Promise.all(keys.map((key) => client.pttl(`${PREFIX}${key}`)));
    const kinds = new Set(keys.map((key) => key.split(':').slice(0, 2).join(':')));
    expect([...kinds], 'pages, facts, counters, generations and the rollout were all written').toEqual(expect.arrayContaining(['v1:e', 'v1:f', 'v1:live', 'v1:gen', 'v1:rollout']));
    const withoutTtl = keys.filter((_, i) => ttls[i] === -1);
    expect(withoutTtl.filter((key) => !KEPT.some((kept) => kept.test(key)))).toEqual([]);
    expect(withoutTtl).toContain('v1:rollout:s:recipes.search');
  }, 60_000);
});

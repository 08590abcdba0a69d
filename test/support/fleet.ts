/**
 * Two gateways (replicas A and B) sharing one real redis-server, in front of the same upstreams.
 * Each replica has its own page cache, review memory and Redis connections, as two processes
 * would; they share only what goes through Redis.
 */
import { beforeEach } from 'vitest';
import type { GatewayConfigInput } from '../../src/config/schema.js';
import { send } from './http.js';
import { startTestGateway } from './gateway.js';
import type { TestGateway } from './gateway.js';
import { startTestRedis } from './redis-server.js';
import type { TestRedis } from './redis-server.js';
import { waitFor } from './wait.js';
import { closedAfterEachTest } from './cleanup.js';
import type { Cleanup } from './cleanup.js';

export const FLEET_HASH_KEY = 'fleet-test-shared-hash-key';

export function redisOverrides(redis: TestRedis, extra: Record<string, unknown> = {}): Partial<GatewayConfigInput> {
  // Generous command timeout: a CPU-starved test machine must not look like a slow Redis.
  return { cache: { redis: { url: redis.url, hashKey: FLEET_HASH_KEY, required: true, retryMs: 100, commandTimeoutMs: 2_000, ...extra } } };
}

/** Resolves once /readyz answers 200 (the Redis tier is up, since it is marked required). */
export async function waitReady(gateway: TestGateway, timeoutMs = 20_000): Promise<void> {
  await waitFor(async () => (await send(gateway.origin, { target: '/readyz' })).status === 200, timeoutMs, `${gateway.origin} ready`);
}

export async function startReplicas(upstream: string, overrides: Partial<GatewayConfigInput>): Promise<[TestGateway, TestGateway]> {
  const a = await startTestGateway(upstream, overrides);
  const b = await startTestGateway(upstream, overrides);
  await Promise.all([waitReady(a), waitReady(b)]);
  return [a, b];
}

export interface RedisPerTest {
  /** The running test's own redis-server. */
  readonly redis: TestRedis;
  /** What the running test started, closed after it, last first (its redis-server last of all). */
  readonly cleanup: Cleanup;
  /** Replicas A and B over the test's redis-server (`extra`: its Redis settings), ready; closed after the test. */
  replicas(upstream: string, extra?: Record<string, unknown>): Promise<[TestGateway, TestGateway]>;
}

/** For a file whose every test has a fresh redis-server of its own: started before each test, stopped after it. */
export function redisServerPerTest(): RedisPerTest {
  const cleanup = closedAfterEachTest();
  let current: TestRedis | undefined;
  beforeEach(async () => {
    const redis = await startTestRedis();
    current = redis;
    cleanup.push(() => redis.close());
  });
  const perTest: RedisPerTest = {
    get redis(): TestRedis {
      if (!current) throw new Error('no redis-server: redisServerPerTest starts one before each test');
      return current;
    },
    cleanup,
    async replicas(upstream, extra = {}) {
      const pair = await startReplicas(upstream, redisOverrides(perTest.redis, extra));
      cleanup.push(() => pair[0].close(), () => pair[1].close());
      return pair;
    },
  };
  return perTest;
}

/**
 * Two gateways (replicas A and B) sharing one real redis-server, in front of the same upstreams.
 * Each replica has its own page cache, review memory and Redis connections, as two processes
 * would; they share only what goes through Redis.
 */
import type { GatewayConfigInput } from '../../src/config/schema.js';
import { send } from './http.js';
import { startTestGateway } from './gateway.js';
import type { TestGateway } from './gateway.js';
import type { TestRedis } from './redis-server.js';

export const FLEET_HASH_KEY = 'fleet-test-shared-hash-key';

export function redisOverrides(redis: TestRedis, extra: Record<string, unknown> = {}): Partial<GatewayConfigInput> {
  // Generous command timeout: a CPU-starved test machine must not look like a slow Redis.
  return { cache: { redis: { url: redis.url, hashKey: FLEET_HASH_KEY, required: true, retryMs: 100, commandTimeoutMs: 2_000, ...extra } } };
}

/** Resolves once /readyz answers 200 (the Redis tier is up, since it is marked required). */
export async function waitReady(gateway: TestGateway, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await send(gateway.origin, { target: '/readyz' })).status !== 200) {
    if (Date.now() > deadline) throw new Error(`${gateway.origin} never became ready`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startReplicas(upstream: string, overrides: Partial<GatewayConfigInput>): Promise<[TestGateway, TestGateway]> {
  const a = await startTestGateway(upstream, overrides);
  const b = await startTestGateway(upstream, overrides);
  await Promise.all([waitReady(a), waitReady(b)]);
  return [a, b];
}

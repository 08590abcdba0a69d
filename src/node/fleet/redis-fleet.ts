/**
 * Node-only: the Redis side of src/node/fleet/fleet.ts (loaded only when `cache.redis` is set).
 */
import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { TierBreaker } from '../../cache/tier-breaker.js';
import type { RedisTierConfig } from '../../config/fleet.js';
import { createRedisCounterStore } from '../../migration/redis-counter-store.js';
import type { Fleet, FleetLog } from './fleet-types.js';
import { createRedisMappingMemory } from './redis-memory.js';
import { RedisTier } from './redis-tier.js';

export function startRedisFleet(redisConfig: RedisTierConfig, hashKey: string, log: FleetLog): Fleet {
  let transitions = 0;
  let closed = false;
  const breaker = new TierBreaker((state, reason) => {
    transitions += 1;
    if (!closed) log('cache-tier', state === 'up' ? 'info' : 'warn', { tier: 'redis', state, reason, effect: state === 'up' ? 'shared cache in use' : 'L1 only' });
  });
  const options: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: redisConfig.commandTimeoutMs,
    connectTimeout: redisConfig.connectTimeoutMs,
    retryStrategy: () => redisConfig.retryMs,
    lazyConnect: false,
  };
  const client = new Redis(redisConfig.url, options);
  // The subscriber queues its SUBSCRIBE until connected, and ioredis subscribes again after each reconnect.
  const subscriber = new Redis(redisConfig.url, { ...options, enableOfflineQueue: true, commandTimeout: undefined });
  client.on('error', () => undefined); // reported through the breaker, once per change
  subscriber.on('error', () => undefined);
  const tier = new RedisTier({
    client,
    subscriber,
    keyPrefix: redisConfig.keyPrefix,
    lockTtlMs: redisConfig.lockTtlMs,
    maxEntryBytes: redisConfig.maxEntryBytes,
    breaker,
    commandTimeoutMs: redisConfig.commandTimeoutMs,
    onUnacknowledged: (reason) => {
      if (closed) return;
      const effect = 'write answered; replicas that cannot reach Redis may serve older pages; replayed when Redis is back';
      log('cache-invalidation', 'warn', { tier: 'redis', acknowledged: 'false', reason, effect });
    },
  });
  const probe = (): void => {
    if (breaker.state === 'up') return;
    client.ping().then(
      () => {
        breaker.recover('redis answers');
        tier.resync();
      },
      () => undefined,
    );
  };
  client.on('ready', probe);
  client.on('close', () => breaker.trip('connection closed'));
  subscriber.on('ready', () => tier.resync());
  const prober = setInterval(probe, redisConfig.retryMs);
  prober.unref();
  return {
    tier,
    memory: createRedisMappingMemory(client, redisConfig.keyPrefix, breaker),
    hashKey,
    counterStore: (bucketMs) => createRedisCounterStore(client, redisConfig.keyPrefix, bucketMs, breaker),
    notReadyReason: () => (redisConfig.required && breaker.state === 'down' ? 'redis out' : null),
    status: () => ({ tier: 'redis', up: breaker.state === 'up', errors: breaker.errors, transitions, unacknowledgedInvalidations: tier.unacknowledged }),
    notes: [],
    async close() {
      closed = true;
      clearInterval(prober);
      client.disconnect();
      subscriber.disconnect();
    },
  };
}

/**
 * Node-only: the state a gateway shares with its replicas, from `cache.redis`: the Redis cache
 * tier, the review memory, and what /readyz and /metrics say about them. Without `cache.redis`
 * there is nothing here and every piece of state stays per process.
 *
 * ioredis is set to fail fast (no offline queue, short command and connect timeouts, one try per
 * command), so a dead or slow Redis trips the breaker at once instead of holding requests; a probe
 * (PING every `retryMs`) puts it back. Each change is one log line and shows in the metrics.
 */
import { Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { MappingMemory } from '../../../mappings/types.js';
import { TierBreaker } from '../../cache/tier-breaker.js';
import type { TierState } from '../../cache/tier-breaker.js';
import type { GatewayConfig } from '../../config/schema.js';
import { createRedisMappingMemory } from './redis-memory.js';
import { RedisTier } from './redis-tier.js';

export interface FleetStatus {
  readonly tier: string;
  readonly up: boolean;
  readonly errors: number;
  readonly transitions: number;
}

export interface Fleet {
  readonly tier: RedisTier | undefined;
  readonly memory: MappingMemory | undefined;
  /** The key the replicas hash api keys and credentials with. */
  readonly hashKey: string | undefined;
  /** Why this replica should get no traffic now (a required Redis out), or null. */
  notReadyReason(): string | null;
  status(): FleetStatus | undefined;
  readonly notes: readonly string[];
  close(): Promise<void>;
}

export type FleetLog = (state: TierState, reason: string) => void;

export function startFleet(config: GatewayConfig, log: FleetLog): Fleet {
  const redisConfig = config.cache.redis;
  const hashKey = redisConfig?.hashKey ?? config.observability.hashKey;
  const none: Fleet = { tier: undefined, memory: undefined, hashKey: undefined, notReadyReason: () => null, status: () => undefined, notes: [], close: async () => {} };
  if (!redisConfig) return none;
  if (hashKey === undefined) {
    return { ...none, notes: ['cache.redis is not used: the replicas need a shared hash key (cache.redis.hashKey, observability.hashKey or GATEWAY_HASH_KEY)'], notReadyReason: () => (redisConfig.required ? 'redis not configured usably' : null) };
  }
  let transitions = 0;
  let closed = false;
  const breaker = new TierBreaker((state, reason) => {
    transitions += 1;
    if (!closed) log(state, reason);
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
    notReadyReason: () => (redisConfig.required && breaker.state === 'down' ? 'redis out' : null),
    status: () => ({ tier: 'redis', up: breaker.state === 'up', errors: breaker.errors, transitions }),
    notes: [],
    async close() {
      closed = true;
      clearInterval(prober);
      client.disconnect();
      subscriber.disconnect();
    },
  };
}

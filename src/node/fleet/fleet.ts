/**
 * Node-only: the state a gateway shares with its replicas, from `cache.redis`: the Redis cache
 * tier, the review memory, and what /readyz and /metrics say about them. Without `cache.redis`
 * every piece of state stays per process, except that a cluster worker tells the other workers
 * of its writes (cluster-tier.ts).
 *
 * ioredis is set to fail fast (no offline queue, short command and connect timeouts, one try per
 * command), so a dead or slow Redis trips the breaker at once instead of holding requests; a probe
 * (PING every `retryMs`) puts it back. Each change is one log line and shows in the metrics.
 */
import cluster from 'node:cluster';
import type { GatewayConfig } from '../../config/schema.js';
import { ClusterTier } from './cluster-tier.js';
import type { Fleet, FleetLog } from './fleet-types.js';

export type { Fleet, FleetLog, FleetStatus } from './fleet-types.js';

export async function startFleet(config: GatewayConfig, log: FleetLog): Promise<Fleet> {
  const redisConfig = config.cache.redis;
  const hashKey = redisConfig?.hashKey ?? config.observability.hashKey;
  const none: Fleet = { tier: undefined, memory: undefined, hashKey: undefined, counterStore: () => undefined, notReadyReason: () => null, status: () => undefined, notes: [], close: async () => {} };
  // A cluster worker without Redis still tells the other workers of its writes (src/node/fleet/cluster-tier.ts).
  const local: Fleet = cluster.isWorker ? { ...none, tier: new ClusterTier((reason) => log('cache-invalidation', 'warn', { tier: 'workers', acknowledged: 'false', reason, effect: 'write answered; another worker may serve older pages until their TTL' })) } : none;
  if (!redisConfig) return local;
  if (hashKey === undefined) {
    return { ...local, notes: ['cache.redis is not used: the replicas need a shared hash key (cache.redis.hashKey, observability.hashKey or GATEWAY_HASH_KEY)'], notReadyReason: () => (redisConfig.required ? 'redis not configured usably' : null) };
  }
  const { startRedisFleet } = await import('./redis-fleet.js');
  return startRedisFleet(redisConfig, hashKey, log);
}

/**
 * Node-only (ioredis): the fleet's live counters in Redis, one hash per bucket start
 * (`<prefix>v1:live:<bucketMs>:<start>`), each replica adding its increments with HINCRBY in one
 * MULTI, the hash expiring once no window can reach it. Calls go through the fleet's breaker
 * (src/cache/tier-breaker.ts): Redis out, every call rejects at once and the counters answer this
 * replica's own counts.
 */
import type { Redis } from 'ioredis';
import type { TierBreaker } from '../cache/tier-breaker.js';
import type { CounterStore } from './live-counters.js';

const OUT = Symbol('redis out');

export function createRedisCounterStore(redis: Redis, keyPrefix: string, bucketMs: number, breaker: TierBreaker): CounterStore {
  const key = (start: number) => `${keyPrefix}v1:live:${bucketMs}:${start}`;
  const guarded = async <T>(op: () => Promise<T>): Promise<T> => {
    const result = await breaker.run<T | typeof OUT>(op, OUT);
    if (result === OUT) throw new Error('redis out');
    return result;
  };
  return {
    add: (buckets, ttlMs) =>
      guarded(async () => {
        const multi = redis.multi();
        for (const [start, fields] of buckets) {
          for (const [field, by] of fields) multi.hincrby(key(start), field, by);
          multi.pexpire(key(start), ttlMs);
        }
        const replies = await multi.exec();
        const failed = replies?.find(([error]) => error !== null);
        if (!replies || failed) throw failed?.[0] ?? new Error('transaction aborted');
      }),
    read: (starts) =>
      guarded(async () => {
        const pipeline = redis.pipeline();
        for (const start of starts) pipeline.hgetall(key(start));
        const replies = (await pipeline.exec()) ?? [];
        return replies.map(([error, fields]) => {
          if (error) throw error;
          return (fields ?? {}) as Record<string, string>;
        });
      }),
  };
}

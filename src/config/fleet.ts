/**
 * Config of the fleet features: the shared cache tier on Redis/Valkey (`cache.redis`). Absent,
 * every replica keeps its state to itself (the embedded default for one machine).
 */
import { z } from 'zod';

export const RedisTierConfigSchema = z
  .object({
    /** `redis://[:password@]host:port[/db]` or `rediss://` (TLS). Shown redacted in /admin/config. */
    url: z.string().regex(/^rediss?:\/\/[^\s]+$/, 'must be a redis:// or rediss:// URL'),
    /** When true, /readyz answers 503 while Redis is out (requests are still served, from L1 and the upstream). */
    required: z.boolean().default(false),
    /** Prefix of every key and channel (several gateways may share one Redis). */
    keyPrefix: z.string().min(1).max(64).default('recipe-gateway:'),
    /**
     * Key of the hashes of api keys and credentials that the replicas must agree on (a shared
     * secret, at least 16 characters); `observability.hashKey` (GATEWAY_HASH_KEY) when absent.
     */
    hashKey: z.string().min(16, 'must be at least 16 characters (a random secret)').optional(),
    /** A command slower than this counts as Redis being out (L1 only until it answers again). */
    commandTimeoutMs: z.number().int().min(10).max(10_000).default(250),
    connectTimeoutMs: z.number().int().min(100).max(60_000).default(2_000),
    /** How often an out Redis is probed. */
    retryMs: z.number().int().min(50).max(60_000).default(1_000),
    /** A single-flight lock's life: the longest a replica that died holding it can delay a page. */
    lockTtlMs: z.number().int().min(100).max(120_000).default(5_000),
    /** Larger pages stay in L1 only. Redis's own `maxmemory` (with volatile-lru) bounds the total. */
    maxEntryBytes: z.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
  })
  .strict();

export type RedisTierConfig = z.output<typeof RedisTierConfigSchema>;

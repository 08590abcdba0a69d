/**
 * The admin views of the config in force and of live traffic control, served with the same
 * protection as /metrics (src/observability/admin-routes.ts). Secrets in the config (the hash key,
 * the admin bearer token) are shown as `[redacted]`.
 */
import type { Generation } from './generations.js';

const REDACTED = '[redacted]';

export function configView(generation: Generation): unknown {
  const config = structuredClone(generation.config);
  const obs = config.observability as { hashKey?: string; admin: { bearerToken?: string } };
  if (obs.hashKey !== undefined) obs.hashKey = REDACTED;
  if (obs.admin.bearerToken !== undefined) obs.admin.bearerToken = REDACTED;
  const redis = config.cache.redis as { url: string; hashKey?: string } | undefined;
  if (redis?.hashKey !== undefined) redis.hashKey = REDACTED;
  if (redis) redis.url = redactUrlPassword(redis.url);
  return { version: generation.version, configHash: generation.configHash, loadedAt: generation.loadedAt, config };
}

/** `redis://user:secret@host` → `redis://user:[redacted]@host`. */
function redactUrlPassword(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:@/]*):[^@/]*@/i, `$1:${REDACTED}@`);
}

export function trafficView(generation: Generation): unknown {
  const traffic = generation.traffic;
  return {
    version: generation.version,
    configHash: generation.configHash,
    routes: Object.fromEntries(Object.entries(generation.config.routes).map(([id, route]) => [id, { mode: route.mode, canaryPercent: route.canaryPercent, fallback: route.fallback }])),
    breakers: Object.fromEntries(Object.entries(traffic?.breakers ?? {}).map(([name, breaker]) => [name, breaker.state()])),
    shadow: traffic?.shadow ? { inFlight: traffic.shadow.inFlight, operations: traffic.shadow.snapshot() } : null,
  };
}

/**
 * The admin views of the config in force and of live traffic control, served with the same
 * protection as /metrics (src/admin/routes.ts). Secrets in the config (the hash key,
 * the admin bearer token, the tracing export's headers) are shown as `[redacted]`.
 */
import type { GatewayConfig } from '../config/schema.js';
import type { TrafficState } from '../traffic/guarded-upstreams.js';
import { trafficRoutes } from './judgement-views.js';
import type { JudgedNow } from '../migration/judgement/source.js';
import type { RouteLookup } from '../migration/rollout/route-in-force.js';

const REDACTED = '[redacted]';

/** The config version in force, as a runtime holds it (src/node/generations.ts on Node). */
export interface ConfigInForce {
  readonly version: number;
  readonly configHash: string;
  readonly loadedAt: string;
  readonly config: GatewayConfig;
  readonly traffic: TrafficState | undefined;
}

export function configView(generation: ConfigInForce): unknown {
  const config = structuredClone(generation.config);
  const obs = config.observability as { hashKey?: string; admin: { bearerToken?: string } };
  if (obs.hashKey !== undefined) obs.hashKey = REDACTED;
  if (obs.admin.bearerToken !== undefined) obs.admin.bearerToken = REDACTED;
  const tracing = config.observability.tracing as { headers: Record<string, string> };
  for (const name of Object.keys(tracing.headers)) tracing.headers[name] = REDACTED;
  const redis = config.cache.redis as { url: string; hashKey?: string } | undefined;
  if (redis?.hashKey !== undefined) redis.hashKey = REDACTED;
  if (redis) redis.url = redactUrlPassword(redis.url);
  return { version: generation.version, configHash: generation.configHash, loadedAt: generation.loadedAt, config };
}

/** `redis://user:secret@host` → `redis://user:[redacted]@host`. */
function redactUrlPassword(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:@/]*):[^@/]*@/i, `$1:${REDACTED}@`);
}

/** Live traffic control: per operation the mode in force (a rollout's step, else the configured mode) and its one state (src/migration/judgement/). */
export function trafficView(generation: ConfigInForce, route: RouteLookup, judged: JudgedNow | undefined): unknown {
  const traffic = generation.traffic;
  return {
    version: generation.version,
    configHash: generation.configHash,
    routes: trafficRoutes(generation.config, route, judged),
    breakers: Object.fromEntries(Object.entries(traffic?.breakers ?? {}).map(([name, breaker]) => [name, breaker.state()])),
    shadow: traffic?.shadow ? { inFlight: traffic.shadow.inFlight, operations: traffic.shadow.snapshot() } : null,
  };
}

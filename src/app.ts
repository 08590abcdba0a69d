/**
 * The gateway core: a Hono app with no Node-only import, so the same code runs on Node and on
 * edge runtimes. A runtime hands it the config, the upstream clients and its bindings.
 *
 *   requestContext (one handler): arrival → guards: method, host, scheme → dispatch → answer and record
 */
import { Hono } from 'hono';
import type { GatewayConfig } from './config/schema.js';
import { CATALOGUE_ROUTES } from './catalogue/route-table.js';
import type { RuntimeBindings } from './gateway/env.js';
import { dispatch } from './pipeline/dispatch.js';
import type { Upstreams } from './upstream/types.js';
import type { RecordSink } from './gateway/request-record.js';
import { mountAdminRoutes } from './admin/routes.js';
import type { AdminRoutes } from './gateway/admin-port.js';
import { identifierFromConfig } from './request/identity.js';
import type { Identifier } from './request/identity.js';
import type { HmacSha256 } from './request/hmac.js';
import { gatewayErrorResponse } from './http/gateway-error.js';
import { compileTrustedProxies } from './http/trusted-proxies.js';
import { hostMatcher } from './http/hosts.js';
import { hostGuard } from './pipeline/host-guard.js';
import { requestContext } from './pipeline/request-context.js';
import { methodGuard } from './pipeline/method-guard.js';
import { adminElsewhereGuard } from './pipeline/admin-elsewhere-guard.js';
import { schemePolicy } from './pipeline/scheme-policy.js';
import { createMappingMemory } from './api2/review-directory.js';
import type { MappingMemory } from '../mappings/types.js';
import { SearchCache } from './cache/search-cache.js';
import type { CacheTier } from './cache/tier.js';
import { guardedUpstreams } from './traffic/guarded-upstreams.js';
import type { TrafficState } from './traffic/guarded-upstreams.js';
import type { BreakerState } from './traffic/breaker.js';
import { ShadowComparator } from './traffic/shadow.js';
import { routesInForce } from './migration/rollout/route-in-force.js';
import type { LiveRoutes } from './migration/rollout/route-in-force.js';
import type { ShadowRecord } from './traffic/shadow.js';
import { deprecationSignals } from './pipeline/deprecation-signal.js';
import type { Tracer } from './observability/tracing/tracer.js';

export interface GatewayDeps {
  readonly config: GatewayConfig;
  readonly upstreams: Upstreams;
  readonly runtime: RuntimeBindings;
  /** Receives one record per answered request (the usage log, the metrics). */
  readonly onRecord?: RecordSink | undefined;
  /** Client and user hashing for the usage log; from `observability` when omitted. */
  readonly identifier?: Identifier | undefined;
  /** Receives one record per shadow comparison (the usage log). */
  readonly onShadow?: ((record: ShadowRecord) => void) | undefined;
  /** Told when an upstream's circuit breaker changes state. */
  readonly onBreaker?: ((upstream: string, from: BreakerState, to: BreakerState) => void) | undefined;
  /** Handed the live traffic state (shadow counters, breakers) for the admin views. */
  readonly onTraffic?: ((state: TrafficState) => void) | undefined;
  /** State kept across config reloads: the page cache and the mapping memory (created when absent). */
  readonly shared?: { readonly searchCache?: SearchCache | null; readonly memory?: MappingMemory } | undefined;
  /** Admin views served by this app (metrics behind a bearer token); omitted when not served here. */
  readonly admin?: AdminRoutes | undefined;
  /** The step in force of each route with a rollout plan (src/migration/rollout); without it such a route keeps its configured mode. */
  readonly rollout?: LiveRoutes | undefined;
  /** Exports kept traces over OTLP (src/observability/tracing/); absent with export off. */
  readonly tracer?: Tracer | undefined;
}

export function createGatewayApp(deps: GatewayDeps): Hono {
  const { config } = deps;
  const app = new Hono();

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  if (deps.admin) mountAdminRoutes(app, deps.admin);

  const logDetails = deps.onRecord && config.observability.log.enabled;
  // One identity for the usage log and a plan's cohorts: the same hash and label.
  const identifier = deps.identifier ?? identifierFromConfig(config.observability, deps.runtime.hmacSha256);
  const mappingContext = { memory: deps.shared?.memory ?? createMappingMemory(), options: { noPhotoImageUrl: config.api2.noPhotoImageUrl } };
  const searchCache = deps.shared?.searchCache !== undefined ? deps.shared.searchCache : createSearchCache(config, deps.runtime.hmacSha256);
  // With traces exported, each call's span facts are noted by the code that awaits it (src/observability/tracing/span-log.ts `endCall`): no wrapper here.
  const upstreams = guardedUpstreams(deps.upstreams, config, deps.onBreaker);
  const route = routesInForce(config, deps.rollout);
  const shadow = Object.values(config.routes).some((r) => r.mode === 'shadow' || (r.rollout && deps.rollout))
    ? new ShadowComparator({
        maxConcurrent: config.traffic.shadow.maxConcurrent,
        // DECISION: a compared gzip answer decodes to at most the size of an upstream answer the gateway accepts.
        maxDecodedBytes: config.limits.maxResponseBodyBytes,
        ...(deps.runtime.compression ? { compression: deps.runtime.compression } : {}),
        ...(deps.onShadow ? { onRecord: deps.onShadow } : {}),
      })
    : null;
  deps.onTraffic?.({ shadow, breakers: upstreams.breakers });
  const served = config.acceptedHosts ? hostMatcher([...config.legacyHosts, ...config.acceptedHosts]) : hostMatcher(config.legacyHosts);
  app.all(
    '*',
    requestContext({
      runtime: deps.runtime,
      maxUrlLength: config.limits.maxUrlLength,
      rules: {
        routes: CATALOGUE_ROUTES,
        trusted: compileTrustedProxies(config.trustedProxies),
        // The one place a request's route mode comes from: the config's, or its rollout's step.
        routeMode: (operation) => route(operation).mode,
        stepSince: (operation) => route(operation).stepSince ?? undefined,
        traced: deps.tracer !== undefined,
      },
      // A record is made for the tracer even when no other sink wants one.
      sink: deps.onRecord ?? (deps.tracer ? () => {} : undefined),
      tracer: deps.tracer,
      details: logDetails ? { identifier } : undefined,
      guards: [
        methodGuard,
        config.observability.admin.listen ? adminElsewhereGuard : undefined,
        config.acceptedHosts ? hostGuard(served) : undefined,
        schemePolicy(config.plainHttpCredentials, config.listen.https?.port, served),
      ],
      deprecation: deprecationSignals(config.deprecation),
      dispatch: dispatch({ config, upstreams, runtime: deps.runtime, mappingContext, searchCache, shadow, route, api2Open: () => upstreams.breakers['api2']?.state() === 'open', clientOf: (apiKey) => identifier.client(apiKey) }),
    }),
  );

  app.onError((error) => {
    console.error(JSON.stringify({ level: 'error', msg: 'unhandled gateway error', error: String(error) }));
    return gatewayErrorResponse(500, 'internal', 'The gateway failed to answer this request.', true);
  });

  return app;
}

/** The search page cache a config asks for, or null when it is off; `shared`: the replicas' tier and hash key. */
export function createSearchCache(config: GatewayConfig, hmacSha256: HmacSha256, shared?: { readonly tier: CacheTier | undefined; readonly hashKey: string | undefined }): SearchCache | null {
  if (!config.cache.enabled) return null;
  return new SearchCache({
    maxEntries: config.cache.maxEntries,
    maxBytes: config.cache.maxBytes,
    honorClientNoCache: config.cache.honorClientNoCache,
    keyKnowledgeTtlMs: config.cache.keyKnowledgeTtlMs,
    tier: shared?.tier,
    hashKey: shared?.hashKey,
    hmacSha256,
  });
}

/**
 * The gateway core: a Hono app with no Node-only import, so the same code runs on Node and on
 * edge runtimes. A runtime hands it the config, the upstream clients and its bindings.
 *
 *   requestContext → hostGuard → schemePolicy → dispatch
 */
import { Hono } from 'hono';
import type { GatewayConfig } from './config/schema.js';
import type { GatewayEnv, RuntimeBindings } from './gateway/env.js';
import { dispatch } from './gateway/dispatch.js';
import type { Upstreams } from './gateway/dispatch.js';
import type { RecordSink } from './gateway/request-record.js';
import { mountAdminRoutes } from './observability/admin-routes.js';
import type { AdminRoutes } from './observability/admin-routes.js';
import { identifierFromConfig } from './observability/identity.js';
import type { Identifier } from './observability/identity.js';
import { gatewayError } from './http/gateway-error.js';
import { compileTrustedProxies } from './http/trusted-proxies.js';
import { hostGuard } from './middleware/host-guard.js';
import { requestContext } from './middleware/request-context.js';
import { schemePolicy } from './middleware/scheme-policy.js';
import { createMappingMemory } from './api2/review-directory.js';

export interface GatewayDeps {
  readonly config: GatewayConfig;
  readonly upstreams: Upstreams;
  readonly runtime: RuntimeBindings;
  /** Receives one record per answered request (the usage log, the metrics). */
  readonly onRecord?: RecordSink | undefined;
  /** Client and user hashing for the usage log; from `observability` when omitted. */
  readonly identifier?: Identifier | undefined;
  /** Admin views served by this app (metrics behind a bearer token); omitted when not served here. */
  readonly admin?: AdminRoutes | undefined;
}

export function createGatewayApp(deps: GatewayDeps): Hono<GatewayEnv> {
  const { config } = deps;
  const app = new Hono<GatewayEnv>();

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  if (deps.admin) mountAdminRoutes(app, deps.admin);

  const logDetails = deps.onRecord && config.observability.log.enabled;
  app.use(
    '*',
    requestContext({
      maxUrlLength: config.limits.maxUrlLength,
      sink: deps.onRecord,
      details: logDetails ? { identifier: deps.identifier ?? identifierFromConfig(config.observability) } : undefined,
    }),
  );
  app.use('*', hostGuard(config.legacyHosts, config.acceptedHosts));
  app.use('*', schemePolicy(deps.runtime, compileTrustedProxies(config.trustedProxies), config.plainHttpCredentials, config.listen.https?.port));
  const mappingContext = { memory: createMappingMemory(), options: { noPhotoImageUrl: config.api2.noPhotoImageUrl } };
  app.all('*', dispatch(config, deps.upstreams, deps.runtime, mappingContext));

  app.onError((error, c) => {
    const record = c.get('record') as GatewayEnv['Variables']['record'] | undefined;
    if (record) record.error = 'internal';
    console.error(JSON.stringify({ level: 'error', msg: 'unhandled gateway error', error: String(error) }));
    return gatewayError(500, 'internal', 'The gateway failed to answer this request.', true);
  });

  return app;
}

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
import { gatewayError } from './http/gateway-error.js';
import { compileTrustedProxies } from './http/trusted-proxies.js';
import { hostGuard } from './middleware/host-guard.js';
import { requestContext } from './middleware/request-context.js';
import { schemePolicy } from './middleware/scheme-policy.js';

export interface GatewayDeps {
  readonly config: GatewayConfig;
  readonly upstreams: Upstreams;
  readonly runtime: RuntimeBindings;
  /** Receives one record per answered request (the usage log). */
  readonly onRecord?: RecordSink;
}

export function createGatewayApp(deps: GatewayDeps): Hono<GatewayEnv> {
  const { config } = deps;
  const app = new Hono<GatewayEnv>();

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.use('*', requestContext(config.limits.maxUrlLength, deps.onRecord));
  app.use('*', hostGuard(config.legacyHosts, config.acceptedHosts));
  app.use('*', schemePolicy(deps.runtime, compileTrustedProxies(config.trustedProxies), config.plainHttpCredentials, config.listen.https?.port));
  app.all('*', dispatch(config, deps.upstreams, deps.runtime));

  app.onError((error, c) => {
    const record = c.get('record') as GatewayEnv['Variables']['record'] | undefined;
    if (record) record.error = 'internal';
    console.error(JSON.stringify({ level: 'error', msg: 'unhandled gateway error', error: String(error) }));
    return gatewayError(500, 'internal', 'The gateway failed to answer this request.', true);
  });

  return app;
}

/**
 * The last handler of the chain: recognises the legacy operation, checks the request as the legacy
 * backend would (src/legacy/request-check.ts), and answers it through the route's upstream.
 * Uncatalogued requests are passed to the legacy backend unchanged, or refused by config.
 */
import type { Handler } from 'hono';
import { RouteTable, uncataloguedTemplate } from '../catalogue/route-table.js';
import type { GatewayConfig } from '../config/schema.js';
import { routeMode, routeTimeoutMs } from '../config/schema.js';
import { mappingFor } from '../../mappings/index.js';
import type { MappingContext } from '../../mappings/types.js';
import { openApi2Exchange } from '../api2/port.js';
import { answerThroughApi2 } from './api2-route.js';
import { gatewayError } from '../http/gateway-error.js';
import { upstreamRequestHeaders } from '../http/headers.js';
import { checkLegacyRequest } from '../legacy/request-check.js';
import { wantsJson } from '../legacy/render.js';
import { passThrough } from '../proxy/pass-through.js';
import type { UpstreamClient } from '../upstream/types.js';
import type { GatewayEnv, RuntimeBindings } from './env.js';
import { readRequestBody } from './read-body.js';

export interface Upstreams {
  readonly legacy: UpstreamClient;
  /** Required when any route is in api2 mode (the config refuses otherwise). */
  readonly api2?: UpstreamClient;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function dispatch(
  config: GatewayConfig,
  upstreams: Upstreams,
  runtime: RuntimeBindings,
  mappingContext: MappingContext,
): Handler<GatewayEnv> {
  const routes = new RouteTable();
  return async (c) => {
    const { path, query } = c.var.target;
    const headers = c.var.headers;
    const record = c.var.record;
    const method = c.req.method;
    const json = wantsJson(headers['accept'], headers['content-type']);
    const match = routes.match(method, path);

    if (match) {
      record.operation = match.operation.id;
      record.form = match.form.kind;
      record.versionPrefix = match.versionPrefix;
    } else {
      record.operation = 'uncatalogued';
      record.pathTemplate = uncataloguedTemplate(path);
      if (config.uncatalogued === 'reject') {
        record.error = 'uncatalogued';
        return gatewayError(404, 'uncatalogued', `No legacy operation answers ${method} on this path.`, json);
      }
    }

    const read = await readRequestBody(c, headers, config.limits.maxRequestBodyBytes);
    if (!read.ok) {
      record.error = 'body-too-large';
      return gatewayError(413, 'body-too-large', `The request body is larger than ${read.limit} bytes.`, json);
    }

    if (match) {
      const checked = checkLegacyRequest(match, {
        query,
        contentType: headers['content-type'],
        authorization: headers['authorization'],
        body: read.body,
      });
      if (!checked.ok) {
        record.error = checked.status === 400 ? 'invalid-request' : 'unauthenticated';
        return gatewayError(checked.status, checked.status === 400 ? 'invalid-request' : 'unauthenticated', checked.message, json, checked.errors);
      }
      const mapping = mappingFor(match.operation.id);
      if (upstreams.api2 && mapping && routeMode(config, match.operation.id) === 'api2') {
        record.mode = 'api2';
        const exchange = openApi2Exchange(
          upstreams.api2,
          { apiKey: checked.apiKey, authorization: headers['authorization'] },
          routeTimeoutMs(config, match.operation.id),
          runtime.clientSignal(c),
          { 'x-forwarded-for': c.var.client.forwardedFor },
        );
        const outcome = await answerThroughApi2(match.operation, mapping, checked.values, exchange, mappingContext, json);
        record.upstreamMs = exchange.upstreamMs();
        if (outcome.error) record.error = outcome.error;
        return outcome.response;
      }
    }

    record.mode = 'legacy';
    const started = Date.now();
    const response = await passThrough(
      upstreams.legacy,
      {
        method,
        target: query ? `${path}?${query}` : path,
        headers: upstreamRequestHeaders(headers, {
          clientChain: c.var.client.forwardedFor,
          proto: c.var.client.scheme,
          host: c.var.client.host,
        }),
        body: read.body,
        timeoutMs: match ? routeTimeoutMs(config, match.operation.id) : config.timeouts.defaultMs,
        signal: runtime.clientSignal(c),
      },
      { label: match ? match.operation.id : 'uncatalogued', write: !SAFE_METHODS.has(method), json },
    );
    record.upstreamMs = Date.now() - started;
    const gatewayReason = response.headers.get('x-gateway-error');
    if (gatewayReason) record.error = gatewayReason;
    return response;
  };
}

/**
 * The answer to a request the guards let through: recognises the legacy operation, checks the
 * request as the legacy backend would (src/legacy/request-check.ts), and answers it the way its
 * route says:
 *
 *   legacy   pass-through to the legacy backend
 *   api2     the operation's mapping, calling api2, answering in the legacy shape
 *   canary   api2 for `canaryPercent` of clients (sticky per api key and user), legacy for the rest
 *   shadow   legacy answers; safe operations are also mapped through api2 in the background and
 *            compared (src/traffic/shadow.ts); writes never are
 *
 * A safe operation whose api2 answer failed (5xx: timeout, unreachable, schema mismatch, open
 * breaker) falls back to legacy when its route says `fallback`. A write is sent to exactly one
 * upstream, once. `recipes.search` (GET) goes through the page cache in every mode.
 * Uncatalogued requests are passed to the legacy backend unchanged, or refused by config.
 */
import type { Context } from 'hono';
import { mappingFor } from '../../mappings/index.js';
import type { MappingContext, OperationMapping } from '../../mappings/types.js';
import { openApi2Exchange } from '../api2/port.js';
import type { Served } from '../cache/page-cache.js';
import type { SearchCache } from '../cache/search-cache.js';
import { RouteTable } from '../catalogue/route-table.js';
import type { RouteMatch } from '../catalogue/route-table.js';
import type { GatewayConfig } from '../config/schema.js';
import { routeMode, routeTimeoutMs } from '../config/schema.js';
import { gatewayError } from '../http/gateway-error.js';
import { upstreamRequestHeaders } from '../http/headers.js';
import { parseBasic } from '../legacy/credentials.js';
import { paidParamsUsed } from '../legacy/params.js';
import { checkLegacyRequest } from '../legacy/request-check.js';
import type { CheckedRequest } from '../legacy/request-check.js';
import { wantsJson } from '../legacy/render.js';
import { passThrough } from '../proxy/pass-through.js';
import { canaryChoosesApi2 } from '../traffic/canary.js';
import type { ShadowAnswer, ShadowComparator } from '../traffic/shadow.js';
import type { AbortSignalLike, UpstreamClient } from '../upstream/types.js';
import { answerThroughApi2 } from './api2-route.js';
import { fromStored, toStored } from './cached-response.js';
import type { GatewayEnv, RuntimeBindings } from './env.js';
import { readRequestBody } from './read-body.js';
import type { BodyRead } from './read-body.js';
import { noteOperation } from './request-record.js';
import type { RequestRecord } from './request-record.js';

export interface Upstreams {
  readonly legacy: UpstreamClient;
  /** Required when any route calls api2 (the config refuses otherwise). */
  readonly api2?: UpstreamClient;
}

export interface DispatchParts {
  readonly config: GatewayConfig;
  readonly upstreams: Upstreams;
  readonly runtime: RuntimeBindings;
  readonly mappingContext: MappingContext;
  readonly searchCache: SearchCache | null;
  readonly shadow: ShadowComparator | null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Printable Latin-1 (and tab): what a header value may carry. */
const HEADER_SAFE = /^[\t\x20-\x7e\xa0-\xff]+$/;

type Checked = Extract<CheckedRequest, { ok: true }>;
type Side = 'legacy' | 'api2';

/** What one upstream attempt produced, and what the request record should learn from it. */
interface Attempt {
  readonly response: Response;
  readonly side: Side;
  readonly upstreamMs: number;
  readonly error: string | undefined;
}

export function dispatch(parts: DispatchParts): (c: Context<GatewayEnv>) => Response | Promise<Response> {
  const { config, upstreams, runtime, mappingContext, searchCache, shadow } = parts;
  const routes = new RouteTable();

  const callLegacy = async (
    c: Context<GatewayEnv>,
    match: RouteMatch | null,
    body: Uint8Array | null,
    json: boolean,
    signal: AbortSignalLike | undefined,
  ): Promise<Attempt> => {
    const { path, query } = c.get('target');
    const client = c.get('client');
    const started = Date.now();
    const response = await passThrough(
      upstreams.legacy,
      {
        method: c.req.method,
        target: query ? `${path}?${query}` : path,
        headers: upstreamRequestHeaders(c.get('headers'), { clientChain: client.forwardedFor, proto: client.scheme, host: client.host }),
        body,
        timeoutMs: match ? routeTimeoutMs(config, match.operation.id) : config.timeouts.defaultMs,
        ...(signal ? { signal } : {}),
      },
      { label: match ? match.operation.id : 'uncatalogued', write: !SAFE_METHODS.has(c.req.method), json },
    );
    // Only gateway-made answers (502/504/503) carry a reason; reading the headers of every answer
    // would turn its plain header object into a Headers on @hono/node-server.
    const error = response.status >= 500 ? (response.headers.get('x-gateway-error') ?? undefined) : undefined;
    return { response, side: 'legacy', upstreamMs: Date.now() - started, error };
  };

  const callApi2 = async (
    c: Context<GatewayEnv>,
    match: RouteMatch,
    mapping: OperationMapping,
    checked: Checked,
    json: boolean,
    signal: AbortSignalLike | undefined,
    timeoutMs = routeTimeoutMs(config, match.operation.id),
  ): Promise<Attempt> => {
    const api2 = upstreams.api2;
    if (!api2) throw new Error('api2 route without an api2 upstream (the config should have refused it)');
    // The api key goes into a header: one that cannot be a header value (CR, LF, NUL, beyond
    // Latin-1) is no key api2 could know. Refused here, it never counts against api2's breaker.
    if (!HEADER_SAFE.test(checked.apiKey)) {
      return { response: gatewayError(403, 'unauthenticated', 'Authentication failed: unknown api_key.', json), side: 'api2', upstreamMs: 0, error: 'unauthenticated' };
    }
    const exchange = openApi2Exchange(
      api2,
      { apiKey: checked.apiKey, authorization: c.get('headers')['authorization'] },
      timeoutMs,
      signal,
      { 'x-forwarded-for': c.get('client').forwardedFor },
    );
    const outcome = await answerThroughApi2(match.operation, mapping, checked.values, exchange, mappingContext, json);
    return { response: outcome.response, side: 'api2', upstreamMs: exchange.upstreamMs(), error: outcome.error };
  };

  /** Which side answers this request, before fallback. */
  const chooseSide = (c: Context<GatewayEnv>, match: RouteMatch, checked: Checked, mapping: OperationMapping | undefined): Side => {
    if (!mapping || !upstreams.api2) return 'legacy';
    const route = config.routes[match.operation.id];
    switch (routeMode(config, match.operation.id)) {
      case 'api2':
        return 'api2';
      case 'canary': {
        const forced = config.traffic.forceHeader ? c.get('headers')[config.traffic.forceHeader]?.trim().toLowerCase() : undefined;
        if (forced === 'legacy' || forced === 'api2') return forced;
        const user = parseBasic(c.get('headers')['authorization'])?.user ?? null;
        return canaryChoosesApi2(route?.canaryPercent ?? 0, checked.apiKey, user) ? 'api2' : 'legacy';
      }
      default:
        return 'legacy';
    }
  };

  /** The answer of a checked catalogued request: its side, then fallback for safe operations. */
  const answerChecked = async (
    c: Context<GatewayEnv>,
    match: RouteMatch,
    checked: Checked,
    body: Uint8Array | null,
    json: boolean,
    signal: AbortSignalLike | undefined,
  ): Promise<Attempt & { fallback?: true }> => {
    const mapping = mappingFor(match.operation.id);
    if (chooseSide(c, match, checked, mapping) === 'legacy' || !mapping) return callLegacy(c, match, body, json, signal);
    const attempt = await callApi2(c, match, mapping, checked, json, signal);
    const fallback = config.routes[match.operation.id]?.fallback === true;
    if (attempt.response.status >= 500 && match.operation.safe && fallback) {
      const rescued = await callLegacy(c, match, body, json, signal);
      return { ...rescued, upstreamMs: rescued.upstreamMs + attempt.upstreamMs, error: `fallback: ${attempt.error ?? attempt.response.status}`, fallback: true };
    }
    return attempt;
  };

  const learn = (record: RequestRecord, attempt: Attempt & { fallback?: true }): void => {
    record.mode = attempt.side;
    record.upstreamMs = attempt.upstreamMs;
    if (attempt.error) record.error = attempt.error;
    if (attempt.fallback) record.fallback = true;
  };

  /** In shadow mode: compare the legacy answer with the api2 mapping's, in the background. */
  const offerShadow = async (c: Context<GatewayEnv>, match: RouteMatch, checked: Checked, response: Response, json: boolean): Promise<void> => {
    const route = config.routes[match.operation.id];
    const mapping = mappingFor(match.operation.id);
    if (!shadow || !mapping || !upstreams.api2 || route?.mode !== 'shadow' || !match.operation.safe) return;
    if (Math.random() >= (route.shadow?.sampleRate ?? 1)) return;
    const asShadow = async (r: Response): Promise<ShadowAnswer> => ({
      status: r.status,
      contentType: r.headers.get('content-type'),
      contentEncoding: r.headers.get('content-encoding'),
      body: new Uint8Array(await r.arrayBuffer()),
    });
    const primary = await asShadow(response.clone());
    shadow.offer({
      operation: match.operation.id,
      requestId: c.get('record').requestId,
      losses: mapping.losses,
      ignore: new Set(route.shadow?.ignore ?? []),
      primary,
      candidate: async () => asShadow((await callApi2(c, match, mapping, checked, json, undefined, config.traffic.shadow.timeoutMs)).response),
      ...(config.traffic.shadow.measureNoise ? { secondary: async () => asShadow((await callLegacy(c, match, null, json, undefined)).response) } : {}),
    }, (work) => runtime.defer?.(c, work));
  };

  /**
   * recipes.search through the page cache; X-Cache tells the client what happened. A HIT or a
   * STALE page is answered without a promise (nothing waits for it).
   */
  const cachedSearch = (c: Context<GatewayEnv>, cache: SearchCache, match: RouteMatch, checked: Checked, json: boolean): Response | Promise<Response> => {
    const headers = c.get('headers');
    const record = c.get('record');
    const side = chooseSide(c, match, checked, mappingFor(match.operation.id));
    const served = cache.serve(
      {
        values: checked.values,
        apiKey: checked.apiKey,
        authorization: headers['authorization'],
        mode: side,
        json,
        acceptEncoding: headers['accept-encoding'],
        cacheControl: headers['cache-control'],
        paidParams: paidParamsUsed(match.operation, checked.query).length > 0,
        defer: (work: Promise<unknown>) => runtime.defer?.(c, work),
      },
      async () => {
        const attempt = await answerChecked(c, match, checked, null, json, runtime.clientSignal(c));
        learn(record, attempt);
        return toStored(attempt.response);
      },
      async () => toStored((await answerChecked(c, match, checked, null, json, undefined)).response),
    );
    const answer = ({ answer: stored, outcome }: Served): Response => {
      record.cache = outcome;
      record.mode ??= side;
      return fromStored(stored, outcome, headers['if-none-match']);
    };
    return served instanceof Promise ? served.then(answer) : answer(served);
  };

  /** A recognised (or uncatalogued) request whose body is read: checked, then answered. */
  const answerRead = (c: Context<GatewayEnv>, match: RouteMatch | null, read: BodyRead, json: boolean): Response | Promise<Response> => {
    const headers = c.get('headers');
    const record = c.get('record');
    if (!read.ok) {
      record.error = 'body-too-large';
      return gatewayError(413, 'body-too-large', `The request body is larger than ${read.limit} bytes.`, json);
    }
    if (!match) {
      return callLegacy(c, null, read.body, json, runtime.clientSignal(c)).then((attempt) => {
        learn(record, attempt);
        return attempt.response;
      });
    }

    const checked = checkLegacyRequest(match, {
      query: c.get('target').query,
      contentType: headers['content-type'],
      authorization: headers['authorization'],
      body: read.body,
    });
    if (!checked.ok) {
      const code = checked.status === 400 ? 'invalid-request' : 'unauthenticated';
      record.error = code;
      return gatewayError(checked.status, code, checked.message, json, checked.errors);
    }

    if (searchCache && match.operation.id === 'recipes.search' && c.req.method === 'GET') {
      const response = cachedSearch(c, searchCache, match, checked, json);
      if (!shadow) return response;
      return Promise.resolve(response).then((r) => withShadow(c, match, checked, r, json));
    }
    return answerChecked(c, match, checked, read.body, json, runtime.clientSignal(c)).then((attempt) => {
      learn(record, attempt);
      if (searchCache && !match.operation.safe && attempt.response.status < 300) searchCache.afterWrite(match.operation.id, headers['authorization']);
      return shadow ? withShadow(c, match, checked, attempt.response, json) : attempt.response;
    });
  };

  const withShadow = async (c: Context<GatewayEnv>, match: RouteMatch, checked: Checked, response: Response, json: boolean): Promise<Response> => {
    if (response.status < 500) await offerShadow(c, match, checked, response, json);
    return response;
  };

  return (c) => {
    const { path } = c.get('target');
    const headers = c.get('headers');
    const record = c.get('record');
    const method = c.req.method;
    const json = wantsJson(headers['accept'], headers['content-type']);
    const match = routes.match(method, path);

    noteOperation(record, match, path);
    if (match) {
      record.routeMode = routeMode(config, match.operation.id);
    } else if (config.uncatalogued === 'reject') {
      record.error = 'uncatalogued';
      return gatewayError(404, 'uncatalogued', `No legacy operation answers ${method} on this path.`, json);
    }

    const read = readRequestBody(c, headers, config.limits.maxRequestBodyBytes);
    if (!(read instanceof Promise)) return answerRead(c, match, read, json);
    return read.then(
      (body) => answerRead(c, match, body, json),
      () => {
        // The client went away (or Node's request timeout cut it) while sending its body: nobody
        // will read an answer, and nothing was sent upstream. Not a gateway failure.
        record.error = 'client-gone';
        return new Response(null, { status: 499 });
      },
    );
  };
}

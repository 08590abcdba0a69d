/**
 * The edge entry (Cloudflare Workers / workerd, module syntax): the same core app as on Node, with
 * fetch as its upstream client, the usage log on the console, and kept traces exported over OTLP
 * in the request's deferred work (trace-export.ts). Bindings: `GATEWAY_CONFIG` (the
 * config document as JSON) and the optional secret `GATEWAY_HASH_KEY` (observability.hashKey).
 * What differs from Node, and why `caFile` and `trustedProxies` are refused: docs/deploy.md (Edge).
 *
 * The app is built once per isolate, on the first request (workerd allows no random values or
 * timers at module scope), and rebuilt only if the bindings change.
 */
import type { Hono } from 'hono';
import { createGatewayApp, createSearchCache } from '../app.js';
import { CacheApiTier } from './cache-api-tier.js';
import type { EdgeCache } from './cache-api-tier.js';
import { parseConfig } from '../config/schema.js';
import type { GatewayConfig } from '../config/schema.js';
import { gatewayErrorResponse } from '../http/gateway-error.js';
import { createFetchUpstream } from '../upstream/fetch-client.js';
import type { UpstreamClient } from '../upstream/types.js';
import { createConsoleSink, edgeOrigin, logLine } from './log.js';
import type { LogWriter } from './log.js';
import { edgeRuntime } from './runtime.js';
import { createEdgeTracer } from './trace-export.js';

export interface EdgeEnv {
  readonly GATEWAY_CONFIG?: unknown;
  readonly GATEWAY_HASH_KEY?: unknown;
}

/** The part of the Workers `ExecutionContext` the gateway may hand on (to Hono). */
export interface EdgeExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
}

export type EdgeGateway =
  | { readonly ok: true; readonly app: Hono; readonly config: GatewayConfig; readonly notes: readonly string[]; readonly tier?: CacheApiTier | undefined }
  | { readonly ok: false; readonly errors: readonly string[] };

/** Parses the bindings and builds the app; never throws (a bad config is an answer, not a crash). */
export function buildEdgeGateway(env: EdgeEnv, write: LogWriter = (line) => console.log(line)): EdgeGateway {
  const document = readDocument(env.GATEWAY_CONFIG);
  if (!document.ok) return document;
  const hashKey = env.GATEWAY_HASH_KEY;
  let input = document.value;
  if (typeof hashKey === 'string' && hashKey !== '' && isObject(input)) {
    const observability = isObject(input['observability']) ? input['observability'] : {};
    input = { ...input, observability: { ...observability, hashKey } };
  }
  const parsed = parseConfig(input);
  if (!parsed.ok) return { ok: false, errors: parsed.errors.map((error) => `GATEWAY_CONFIG: ${error}`) };
  const config = parsed.config;

  const errors: string[] = [];
  const notes: string[] = [];
  const upstreamDocs = isObject(input) && isObject(input['upstreams']) ? input['upstreams'] : {};
  for (const [name, upstream] of Object.entries(config.upstreams)) {
    if (!upstream) continue;
    if (upstream.caFile !== undefined) {
      errors.push(`GATEWAY_CONFIG: upstreams.${name}.caFile: is not supported on the edge (a Worker trusts the platform's certificate store); give the upstream a publicly trusted certificate`);
    }
    const doc = upstreamDocs[name];
    if (isObject(doc) && ('connections' in doc || 'keepAliveTimeoutMs' in doc)) {
      notes.push(`upstreams.${name}.connections and keepAliveTimeoutMs are ignored on the edge: the platform pools connections`);
    }
  }
  if (config.trustedProxies.length > 0) {
    errors.push(`GATEWAY_CONFIG: trustedProxies: must be empty on the edge: the platform gives the client's address (CF-Connecting-IP) and scheme (the request URL); no proxy sits between it and the Worker`);
  }
  if (errors.length > 0) return { ok: false, errors };
  if (isObject(input) && 'listen' in input) notes.push('listen is ignored on the edge: the platform listens and terminates TLS');
  const log = config.observability.log;
  if (log.enabled && log.destination !== 'stdout' && log.destination !== 'stderr') {
    notes.push(`observability.log.destination '${log.destination}' is ignored on the edge: the usage log goes to the console (the platform's log pipeline)`);
  }
  if (config.observability.metrics.enabled) notes.push('metrics are not served on the edge: use the usage log (npm run report) and the platform analytics');
  if (config.observability.hashKey === undefined && log.enabled) {
    notes.push('no observability.hashKey (or GATEWAY_HASH_KEY): each isolate draws its own key, so client hashes differ between instances');
  }

  const maxResponseBytes = config.limits.maxResponseBodyBytes;
  const upstream = (name: string, baseUrl: string): UpstreamClient => createFetchUpstream({ name, baseUrl, maxResponseBytes, fetch: withoutPlatformHeaders });
  const legacy = upstream('legacy', config.upstreams.legacy.baseUrl);
  const api2 = config.upstreams.api2 ? upstream('api2', config.upstreams.api2.baseUrl) : undefined;
  const writeLog: LogWriter = log.destination === 'stderr' ? (line) => console.error(line) : write;
  const tier = edgeTier(config, notes);
  const origin = edgeOrigin(config.observability.instance, configText(env.GATEWAY_CONFIG));
  const tracer = createEdgeTracer(config.observability.tracing, origin.instance, { legacy: config.upstreams.legacy.baseUrl, api2: config.upstreams.api2?.baseUrl });
  const app = createGatewayApp({
    config,
    upstreams: api2 ? { legacy, api2 } : { legacy },
    runtime: edgeRuntime,
    onRecord: createConsoleSink(log, writeLog, origin),
    tracer,
    ...(tier ? { shared: { searchCache: createSearchCache(config, edgeRuntime.hmacSha256, { tier, hashKey: config.observability.hashKey }) } } : {}),
  });
  return { ok: true, app, config, notes, tier };
}

/**
 * The platform's own request headers (`CF-Connecting-IP`, `CF-Ray`, `CF-IPCountry`, `CF-Visitor`, …)
 * describe the hop from the client to the edge; the upstream learns the client's address from
 * `X-Forwarded-For`, and Cloudflare refuses or rewrites subrequests that carry some `CF-` headers.
 * So every `cf-*` header is dropped from what the Worker sends upstream.
 */
function withoutPlatformHeaders(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  const platform = [...headers.keys()].filter((name) => name.startsWith('cf-'));
  if (platform.length === 0) return fetch(input, init);
  for (const name of platform) headers.delete(name);
  return fetch(input, { ...init, headers });
}

function configText(config: unknown): string {
  return typeof config === 'string' ? config : JSON.stringify(config ?? null);
}

let built: { readonly key: string; readonly gateway: EdgeGateway } | undefined;

/** The bindings the gateway is built from, as one comparable value (an object var may be a fresh object per request). */
function bindingKey(env: EdgeEnv): string {
  const config = env.GATEWAY_CONFIG;
  return `${typeof config === 'string' ? config : JSON.stringify(config ?? null)}\n${String(env.GATEWAY_HASH_KEY ?? '')}`;
}

/** The isolate's gateway, built on first use and kept while the bindings stay the same. */
export function edgeGateway(env: EdgeEnv): EdgeGateway {
  const key = bindingKey(env);
  if (built?.key === key) return built.gateway;
  const gateway = buildEdgeGateway(env);
  built = { key, gateway };
  const write: LogWriter = (line) => console.log(line);
  if (gateway.ok) {
    logLine(write, 'info', 'gateway started', { runtime: 'edge', legacy: gateway.config.upstreams.legacy.baseUrl, api2: gateway.config.upstreams.api2?.baseUrl });
    for (const note of gateway.notes) logLine(write, 'info', 'note', { note });
  } else {
    logLine(write, 'error', 'invalid gateway config', { errors: gateway.errors });
  }
  return gateway;
}

export default {
  fetch(request: Request, env: EdgeEnv, ctx: EdgeExecutionContext): Response | Promise<Response> {
    const gateway = edgeGateway(env);
    if (!gateway.ok) {
      const json = /application\/json/i.test(request.headers.get('accept') ?? '');
      return gatewayErrorResponse(500, 'internal', 'The gateway is not configured: its GATEWAY_CONFIG binding is missing or invalid (see the log).', json);
    }
    const answer = gateway.app.fetch(request, env, ctx as Parameters<Hono['fetch']>[2]);
    const tier = gateway.tier;
    if (!tier) return answer;
    // Cache writes started by this request outlive its answer only through waitUntil.
    return Promise.resolve(answer).finally(() => {
      const writes = tier.settled();
      if (writes) ctx.waitUntil(writes);
    });
  },
};

/** The Workers Cache API tier when `cache.edgeCacheApi` asks for it and the isolates can share hashes. */
function edgeTier(config: GatewayConfig, notes: string[]): CacheApiTier | undefined {
  if (!config.cache.enabled || !config.cache.edgeCacheApi) return undefined;
  const cache = (globalThis as { caches?: { default?: EdgeCache } }).caches?.default;
  if (!cache) return void notes.push('cache.edgeCacheApi: this runtime has no caches.default; each isolate keeps its own cache');
  if (config.observability.hashKey === undefined) {
    return void notes.push('cache.edgeCacheApi needs GATEWAY_HASH_KEY (or observability.hashKey) so isolates hash api keys alike; each isolate keeps its own cache');
  }
  return new CacheApiTier(cache);
}

type ReadDocument = { ok: true; value: unknown } | { ok: false; errors: string[] };

function readDocument(binding: unknown): ReadDocument {
  if (binding === undefined || binding === null || binding === '') {
    return { ok: false, errors: ['GATEWAY_CONFIG: is not set (bind the config document as a JSON text or object var, or a secret)'] };
  }
  if (typeof binding !== 'string') return { ok: true, value: binding };
  try {
    return { ok: true, value: JSON.parse(binding) as unknown };
  } catch (error) {
    return { ok: false, errors: [`GATEWAY_CONFIG: is not valid JSON (${(error as Error).message})`] };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

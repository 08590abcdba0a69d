/**
 * The gateway configuration: one document, validated with zod at load. Every error names the key
 * and the rule. Defaults are chosen so that an empty `routes` object means "everything to legacy".
 */
import { z } from 'zod';
import { OPERATIONS, OPERATION_IDS, isOperationId } from '../catalogue/operations.js';
import type { OperationId } from '../catalogue/operations.js';
import { movability } from '../catalogue/movability.js';
import { ObservabilityConfigSchema } from './observability.js';
import { isAddressOrRange } from '../http/trusted-proxies.js';
import { RedisTierConfigSchema } from './fleet.js';
import { RolloutConfigSchema, RolloutPlanSchema } from './rollout.js';
import { DeprecationConfigSchema } from './deprecation.js';

const hostname = z
  .string()
  .min(1)
  .regex(/^[a-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9a-f:.]+\](:[0-9]{1,5})?$/i, 'must be a host name or address, with an optional :port')
  .transform((host) => host.toLowerCase());

const ipOrCidr = z
  .string()
  .refine(isAddressOrRange, 'must be an IP address or a CIDR range such as 10.0.0.0/8 or fd00::/8');

const httpUrl = z
  .string()
  .url()
  .refine((url) => /^https?:\/\//i.test(url), 'must be an http:// or https:// URL')
  .refine((url) => !/[?#]/.test(url), 'must not carry a query or a fragment')
  .refine((url) => !/^[a-z]+:\/\/[^/]*@/i.test(url), 'must not carry credentials (user:password@): they would be shown in the admin view and never sent');

const timeoutMs = z.number().int().min(1).max(600_000);

export const UpstreamConfigSchema = z
  .object({
    baseUrl: httpUrl,
    connections: z.number().int().min(1).max(1024).default(64),
    keepAliveTimeoutMs: z.number().int().min(100).max(600_000).default(4_000),
    /** PEM file of certificate authorities to trust for an https upstream. */
    caFile: z.string().min(1).optional(),
  })
  .strict();

/**
 * legacy: pass-through. api2: through the mapping. canary: `canaryPercent` of clients (sticky per
 * api key and user) to api2, the rest to legacy. shadow: answered by legacy; safe operations are
 * also mapped through api2 in the background and compared (writes never are).
 */
export const ROUTE_MODES = ['legacy', 'api2', 'canary', 'shadow'] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];
/** Modes that call api2 and so need a mapping and an api2 upstream. */
export const API2_MODES: readonly RouteMode[] = ['api2', 'canary', 'shadow'];

const FreshnessSchema = z
  .object({
    ttlMs: z.number().int().min(1).max(86_400_000).default(60_000),
    staleWhileRevalidateMs: z.number().int().min(0).max(86_400_000).default(30_000),
    staleIfErrorMs: z.number().int().min(0).max(86_400_000).default(300_000),
  })
  .strict();

/** Operations whose answers may be cached: the catalogue says which (`cache: 'pages'`). */
export const CACHEABLE_OPERATIONS: readonly OperationId[] = OPERATIONS.filter((op) => op.cache === 'pages').map((op) => op.id);

const RouteConfigSchema = z
  .object({
    /** Who answers the operation: the legacy backend (pass-through) or api2 through its mapping. */
    mode: z.enum(ROUTE_MODES).default('legacy'),
    timeoutMs: timeoutMs.optional(),
    /** Freshness of cached pages (cacheable operations only). */
    cache: FreshnessSchema.optional(),
    /** canary: the share of clients sent to api2, 0-100. */
    canaryPercent: z.number().min(0).max(100).optional(),
    /** api2 or canary: a safe operation whose api2 call fails (5xx, timeout, schema, open breaker) is answered by legacy. */
    fallback: z.boolean().default(false),
    /** shadow: the share of safe requests compared (0-1), and legacy field paths never compared (`Results[].StarRating`). */
    shadow: z
      .object({
        sampleRate: z.number().min(0).max(1).default(1),
        ignore: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .optional(),
    /** A progressive rollout (src/config/rollout.ts): the plan decides the mode and the canary percent. */
    rollout: RolloutPlanSchema.optional(),
  })
  .strict();

const BreakerSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Consecutive failures (thrown exchanges or 5xx answers) that open the breaker. */
    failureThreshold: z.number().int().min(1).max(10_000).default(5),
    /** How long it stays open before one half-open probe. */
    openMs: z.number().int().min(100).max(3_600_000).default(10_000),
  })
  .strict();

export const GatewayConfigSchema = z
  .object({
    /**
     * Processes answering on the listeners (node:cluster; src/node/cluster.ts). 1 (default) runs
     * no cluster: in a container the orchestrator scales. `auto`: one per core the machine offers.
     */
    workers: z.union([z.number().int().min(1).max(256), z.literal('auto')]).default(1),
    listen: z
      .object({
        host: z.string().min(1).default('0.0.0.0'),
        port: z.number().int().min(0).max(65_535).default(8080),
        https: z
          .object({
            port: z.number().int().min(0).max(65_535),
            certFile: z.string().min(1),
            keyFile: z.string().min(1),
          })
          .strict()
          .optional(),
      })
      .strict()
      .prefault({}),
    upstreams: z
      .object({
        legacy: UpstreamConfigSchema,
        /** api2, always over https (api2-notes, authentication [C]). */
        api2: UpstreamConfigSchema.refine((u) => /^https:\/\//i.test(u.baseUrl), {
          message: 'api2 is served over https only: baseUrl must start with https://',
          path: ['baseUrl'],
        }).optional(),
      })
      .strict(),
    api2: z
      .object({
        /** ImageURL/HeroPhotoUrl for recipes api2 sends without a photo. */
        noPhotoImageUrl: z.string().default(''),
      })
      .strict()
      .prefault({}),
    /**
     * Host names of the legacy service. Clients that use the gateway as their HTTP proxy may name
     * them in an absolute-form target; any other host there is refused with 421 and never contacted.
     */
    legacyHosts: z.array(hostname).default([]),
    /**
     * When set, the `Host` header must be one of these or a legacy host, else 421.
     * When absent, any `Host` is accepted (the upstream never depends on it).
     */
    acceptedHosts: z.array(hostname).optional(),
    /** Peers whose `X-Forwarded-Proto` and `X-Forwarded-For` are believed. */
    trustedProxies: z.array(ipOrCidr).default([]),
    /** What to do with credentials (api_key, Authorization) sent over plain http. Always marked insecure. */
    plainHttpCredentials: z.enum(['allow', 'redirect', 'reject']).default('allow'),
    /** Requests that match no catalogued operation: passed to legacy unchanged, or refused with 404. */
    uncatalogued: z.enum(['pass', 'reject']).default('pass'),
    /**
     * A parameter a catalogued operation does not take: dropped (never forwarded, never keyed) or
     * refused with 400 naming it. DECISION: drop by default (safe for the cache, kind to clients
     * that add cache-busters or callbacks).
     */
    unknownParameters: z.enum(['drop', 'reject']).default('drop'),
    timeouts: z
      .object({
        defaultMs: timeoutMs.default(10_000),
      })
      .strict()
      .prefault({}),
    routes: z
      .record(z.string(), RouteConfigSchema)
      .default({})
      .superRefine((routes, ctx) => {
        for (const [id, route] of Object.entries(routes)) {
          if (!isOperationId(id)) {
            ctx.addIssue({
              code: 'custom',
              path: [id],
              message: `is not an operation id; known ids: ${OPERATION_IDS.join(', ')}`,
            });
            continue;
          }
          if (route.cache && !CACHEABLE_OPERATIONS.includes(id)) {
            ctx.addIssue({
              code: 'custom',
              path: [id, 'cache'],
              message: `${id} is not cached: only ${CACHEABLE_OPERATIONS.join(', ')} is (per-user lists change through channels the gateway does not see)`,
            });
          }
          const move = movability(id);
          if (API2_MODES.includes(route.mode) && !move.canMove) {
            ctx.addIssue({ code: 'custom', path: [id, 'mode'], message: `${id} cannot be routed to api2 (${route.mode}): ${move.reason}; keep it on legacy` });
          }
          if (route.mode === 'canary' && route.canaryPercent === undefined && !route.rollout) {
            ctx.addIssue({ code: 'custom', path: [id, 'canaryPercent'], message: 'is required in canary mode (the share of clients sent to api2, 0-100)' });
          }
          if (route.canaryPercent !== undefined && route.mode !== 'canary' && !route.rollout) {
            ctx.addIssue({ code: 'custom', path: [id, 'canaryPercent'], message: `applies to canary mode only (this route is ${route.mode})` });
          }
          if (route.rollout) rolloutIssues(id, route, ctx);
          if (route.shadow && route.mode !== 'shadow' && !route.rollout) {
            ctx.addIssue({ code: 'custom', path: [id, 'shadow'], message: `applies to shadow mode only (this route is ${route.mode})` });
          }
        }
      }),
    traffic: z
      .object({
        /**
         * A request header that forces a canary route to one side for testing (`legacy` or `api2`).
         * Off unless named.
         */
        forceHeader: z
          .string()
          .regex(/^[A-Za-z0-9-]+$/, 'must be a header name')
          .transform((name) => name.toLowerCase())
          .optional(),
        shadow: z
          .object({
            /** Shadow comparisons running at once; past it a sampled request is not compared. */
            maxConcurrent: z.number().int().min(1).max(10_000).default(16),
            /** Deadline of a shadow api2 call; the client never waits for it. */
            timeoutMs: timeoutMs.default(3_000),
            /** Also call legacy a second time, to tell noise (fields legacy itself varies) from mapping faults. */
            measureNoise: z.boolean().default(true),
          })
          .strict()
          .prefault({}),
        /** A circuit breaker per upstream. */
        breakers: z
          .object({ legacy: BreakerSchema.prefault({ enabled: false }), api2: BreakerSchema.prefault({}) })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    cache: z
      .object({
        enabled: z.boolean().default(true),
        maxEntries: z.number().int().min(1).max(10_000_000).default(10_000),
        /** Stored bytes, headers and keys included. */
        maxBytes: z.number().int().min(1024).max(16 * 1024 * 1024 * 1024).default(50 * 1024 * 1024),
        /** A request with `Cache-Control: no-cache` skips the stored page (its answer still refreshes it). */
        honorClientNoCache: z.boolean().default(true),
        /** How long an api key answered 200 upstream may read stored pages without asking again. */
        keyKnowledgeTtlMs: z.number().int().min(1000).max(86_400_000).default(300_000),
        /** A shared tier behind the per-process cache, for many replicas (src/config/fleet.ts). */
        redis: RedisTierConfigSchema.optional(),
        /** On the edge (workerd): the Workers Cache API as the shared tier of a data centre's isolates (src/edge/cache-api-tier.ts). */
        edgeCacheApi: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    observability: ObservabilityConfigSchema.prefault({}),
    /** Deprecation and Sunset headers for legacy clients (src/config/deprecation.ts); off unless set. */
    deprecation: DeprecationConfigSchema.optional(),
    /** How rollouts are evaluated; the plans are on the routes (`routes.<id>.rollout`). */
    rollout: RolloutConfigSchema,
    limits: z
      .object({
        /** Larger request bodies get 413 (a chunked body is read no further than this). */
        maxRequestBodyBytes: z.number().int().min(0).max(100 * 1024 * 1024).default(1024 * 1024),
        /** Larger upstream answers get 502. */
        maxResponseBodyBytes: z.number().int().min(1024).max(1024 * 1024 * 1024).default(10 * 1024 * 1024),
        /** Longer request targets get 414. */
        maxUrlLength: z.number().int().min(64).max(65_536).default(8192),
        /** The request line and headers together (Node's maxHeaderSize); more get 431. */
        maxHeaderBytes: z.number().int().min(1024).max(1024 * 1024).default(16 * 1024),
        /** Time a client has to send the request line and headers (slowloris); past it 408 and the connection is closed. */
        headersTimeoutMs: z.number().int().min(100).max(600_000).default(10_000),
        /** Time a client has to send the whole request, body included (not the time of the answer); past it 408. */
        requestTimeoutMs: z.number().int().min(100).max(3_600_000).default(30_000),
        /** How long a client's idle keep-alive connection is kept open. */
        clientKeepAliveTimeoutMs: z.number().int().min(100).max(600_000).default(5_000),
        /** SIGTERM/SIGINT: how long requests in flight may finish, once new connections are refused, before the rest are cut. */
        shutdownGraceMs: z.number().int().min(0).max(600_000).default(15_000),
        /** SIGTERM/SIGINT: how long /readyz answers 503 while the listener still serves, before the drain (load balancers notice). */
        readyDelayMs: z.number().int().min(0).max(120_000).default(0),
      })
      .strict()
      .superRefine((limits, ctx) => {
        if (limits.maxUrlLength >= limits.maxHeaderBytes) {
          ctx.addIssue({
            code: 'custom',
            path: ['maxUrlLength'],
            message: `must be smaller than limits.maxHeaderBytes (${limits.maxHeaderBytes}): the request line counts toward the header bytes, so a longer target would get 431, not 414`,
          });
        }
        if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
          ctx.addIssue({ code: 'custom', path: ['headersTimeoutMs'], message: `must not be longer than limits.requestTimeoutMs (${limits.requestTimeoutMs})` });
        }
      })
      .prefault({}),
  })
  .strict()
  .superRefine((config, ctx) => {
    for (const issue of crossSectionIssues(config)) ctx.addIssue({ code: 'custom', ...issue });
  });

type RouteConfig = z.output<typeof RouteConfigSchema>;

/** A plan's pointed errors that need the operation: legacy-only, a mode set beside it, a write shadowed. */
function rolloutIssues(id: OperationId, route: RouteConfig, ctx: z.RefinementCtx): void {
  const move = movability(id);
  if (!move.canMove) {
    ctx.addIssue({ code: 'custom', path: [id, 'rollout'], message: `${id} cannot be rolled out to api2: ${move.reason}` });
    return;
  }
  if (OPERATIONS.find((op) => op.id === id)?.safe) return;
  route.rollout?.steps.forEach((step, index) => {
    if (step === 'shadow') {
      ctx.addIssue({ code: 'custom', path: [id, 'rollout', 'steps', index], message: `${id} is a write and writes are never shadowed: its plan starts at a percentage and gates on error rates` });
    }
  });
  if (route.rollout?.gates.shadowAgreement) {
    ctx.addIssue({ code: 'custom', path: [id, 'rollout', 'gates', 'shadowAgreement'], message: `${id} is a write and writes are never shadowed: gate it on errorRate, latencyP95 and breaker` });
  }
}

/** A pointed error that needs more than one section. */
interface CrossSectionIssue {
  readonly path: Array<string | number>;
  readonly message: string;
}

type LooseRoute = { readonly mode?: unknown; readonly rollout?: unknown } | undefined;

const objectOr = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * The checks across sections: routes that call api2 need an api2 upstream; a write's rollout waits
 * for its reads'; a rollout state file is one process's. Run by the schema on a valid document, and
 * by parseConfig on a document with other errors (zod skips an object's refinements then), so that
 * every error is reported in one round: they read the document as written, loosely (a key left out
 * is its default).
 */
function crossSectionIssues(document: unknown): CrossSectionIssue[] {
  const doc = objectOr(document) ?? {};
  const routes = (objectOr(doc['routes']) ?? {}) as Record<string, LooseRoute>;
  const route = (id: string): LooseRoute => objectOr(routes[id]);
  const issues: CrossSectionIssue[] = [];

  if (objectOr(doc['upstreams'])?.['api2'] === undefined) {
    const api2Routes = Object.keys(routes)
      .filter((id) => API2_MODES.includes(route(id)?.mode as RouteMode) || Boolean(route(id)?.rollout))
      .map((id) => `${id}: ${route(id)?.rollout ? 'rollout' : String(route(id)?.mode)}`);
    if (api2Routes.length > 0) issues.push({ path: ['upstreams', 'api2'], message: `is required when a route calls api2 (${api2Routes.join(', ')})` });
  }

  // A write's rollout starts once the reads of its resource have finished theirs (the plan of a
  // read that can move must exist, or the read must already be on api2).
  for (const id of Object.keys(routes)) {
    const write = OPERATIONS.find((op) => op.id === id && !op.safe);
    if (!route(id)?.rollout || !write || !movability(write.id).canMove) continue;
    const stuck = OPERATIONS.filter((op) => op.resource === write.resource && op.safe && movability(op.id).canMove)
      .map((op) => op.id)
      .filter((read) => !route(read)?.rollout && route(read)?.mode !== 'api2');
    if (stuck.length > 0) {
      issues.push({
        path: ['routes', id, 'rollout'],
        message: `a write's rollout starts once the reads of ${write.resource} have finished theirs: give ${stuck.join(', ')} a rollout plan or mode "api2"`,
      });
    }
  }

  // `workers` left out is 1 (its default).
  const workers = doc['workers'];
  if (objectOr(doc['rollout'])?.['stateFile'] !== undefined && workers !== undefined && workers !== 1 && !objectOr(doc['cache'])?.['redis']) {
    issues.push({
      path: ['rollout', 'stateFile'],
      message: 'is one process\'s rollout state: with several workers, share the state through cache.redis instead (or run workers: 1)',
    });
  }
  return issues;
}

export type GatewayConfigInput = z.input<typeof GatewayConfigSchema>;
export type GatewayConfig = z.output<typeof GatewayConfigSchema>;

export type ConfigResult = { ok: true; config: GatewayConfig } | { ok: false; errors: string[] };

/**
 * A plan decides the mode and the canary percent: either key beside it, of any value, is refused
 * naming the plan. Read on the document as written: the parsed config cannot tell an explicit
 * `"mode": "legacy"` from the default.
 */
function keysBesidePlans(document: unknown): CrossSectionIssue[] {
  const routes = objectOr(objectOr(document)?.['routes']) ?? {};
  return Object.entries(routes).flatMap(([id, value]) => {
    const route = objectOr(value);
    if (!route?.['rollout']) return [];
    const steps = objectOr(route['rollout'])?.['steps'];
    const plan = `routes["${id}"].rollout${Array.isArray(steps) ? `, steps ${JSON.stringify(steps)}` : ''}`;
    return (['mode', 'canaryPercent'] as const)
      .filter((key) => route[key] !== undefined)
      .map((key) => ({ path: ['routes', id, key], message: `is decided by the rollout plan (${plan}): leave ${key} out, or remove the plan` }));
  });
}

/** Validates a parsed document; errors read `<key.path>: <rule>`. */
export function parseConfig(document: unknown): ConfigResult {
  const result = GatewayConfigSchema.safeParse(document);
  const besidePlans = keysBesidePlans(document).map((issue) => `${keyPath(issue.path)}: ${issue.message}`);
  if (result.success) return besidePlans.length === 0 ? { ok: true, config: result.data } : { ok: false, errors: besidePlans };
  const errors = [...result.error.issues.map((issue) => `${keyPath(issue.path) || '(root)'}: ${issue.message}`), ...besidePlans];
  for (const issue of crossSectionIssues(document)) {
    const error = `${keyPath(issue.path)}: ${issue.message}`;
    if (!errors.includes(error)) errors.push(error);
  }
  return { ok: false, errors };
}

/** `routes["recipes.search"].timeoutMs`: keys that contain a dot are quoted. */
function keyPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => {
      const name = String(key);
      if (typeof key === 'number') return `[${name}]`;
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return index === 0 ? name : `.${name}`;
      return `[${JSON.stringify(name)}]`;
    })
    .join('');
}

export function routeMode(config: GatewayConfig, id: OperationId): RouteMode {
  return config.routes[id]?.mode ?? 'legacy';
}

/** The freshness policy of a cacheable operation (defaults when its route sets none). */
export function routeFreshness(config: GatewayConfig, id: OperationId): z.output<typeof FreshnessSchema> {
  return config.routes[id]?.cache ?? FreshnessSchema.parse({});
}

export function routeTimeoutMs(config: GatewayConfig, id: OperationId): number {
  return config.routes[id]?.timeoutMs ?? config.timeouts.defaultMs;
}

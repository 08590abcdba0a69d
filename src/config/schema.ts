/**
 * The gateway configuration: one document, validated with zod at load. Every error names the key
 * and the rule. Defaults are chosen so that an empty `routes` object means "everything to legacy".
 */
import { z } from 'zod';
import { OPERATION_IDS, isOperationId } from '../catalogue/operations.js';
import type { OperationId } from '../catalogue/operations.js';
import { legacyOnlyReason } from '../../mappings/index.js';
import { ObservabilityConfigSchema } from './observability.js';

const hostname = z
  .string()
  .min(1)
  .regex(/^[a-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9a-f:.]+\](:[0-9]{1,5})?$/i, 'must be a host name or address, with an optional :port')
  .transform((host) => host.toLowerCase());

const ipOrCidr = z
  .string()
  .regex(/^[0-9a-f:.]+(\/[0-9]{1,3})?$/i, 'must be an IP address or a CIDR range such as 10.0.0.0/8');

const httpUrl = z
  .string()
  .url()
  .refine((url) => /^https?:\/\//i.test(url), 'must be an http:// or https:// URL')
  .refine((url) => !/[?#]/.test(url), 'must not carry a query or a fragment');

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

export const ROUTE_MODES = ['legacy', 'api2'] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];

const RouteConfigSchema = z
  .object({
    /** Who answers the operation: the legacy backend (pass-through) or api2 through its mapping. */
    mode: z.enum(ROUTE_MODES).default('legacy'),
    timeoutMs: timeoutMs.optional(),
  })
  .strict();

export const GatewayConfigSchema = z
  .object({
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
          const why = legacyOnlyReason(id);
          if (route.mode === 'api2' && why) {
            ctx.addIssue({ code: 'custom', path: [id, 'mode'], message: `${id} cannot be routed to api2: ${why}; keep it on legacy` });
          }
        }
      }),
    observability: ObservabilityConfigSchema.prefault({}),
    limits: z
      .object({
        maxRequestBodyBytes: z.number().int().min(0).max(100 * 1024 * 1024).default(1024 * 1024),
        maxResponseBodyBytes: z.number().int().min(1024).max(1024 * 1024 * 1024).default(10 * 1024 * 1024),
        maxUrlLength: z.number().int().min(64).max(65_536).default(8192),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine((config, ctx) => {
    const api2Routes = Object.entries(config.routes).filter(([, route]) => route.mode === 'api2').map(([id]) => id);
    if (api2Routes.length > 0 && !config.upstreams.api2) {
      ctx.addIssue({
        code: 'custom',
        path: ['upstreams', 'api2'],
        message: `is required when a route is in api2 mode (${api2Routes.join(', ')})`,
      });
    }
  });

export type GatewayConfigInput = z.input<typeof GatewayConfigSchema>;
export type GatewayConfig = z.output<typeof GatewayConfigSchema>;

export type ConfigResult = { ok: true; config: GatewayConfig } | { ok: false; errors: string[] };

/** Validates a parsed document; errors read `<key.path>: <rule>`. */
export function parseConfig(document: unknown): ConfigResult {
  const result = GatewayConfigSchema.safeParse(document);
  if (result.success) return { ok: true, config: result.data };
  return {
    ok: false,
    errors: result.error.issues.map((issue) => `${keyPath(issue.path) || '(root)'}: ${issue.message}`),
  };
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

export function routeTimeoutMs(config: GatewayConfig, id: OperationId): number {
  return config.routes[id]?.timeoutMs ?? config.timeouts.defaultMs;
}

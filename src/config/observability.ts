/**
 * Config of the usage log, the metrics endpoint and the admin views (`observability` key).
 *
 * The admin views (metrics) are never open to every client of the gateway: they are served on the
 * admin listener (`admin.listen`, loopback by default; beyond loopback only with a token) when it is
 * set, otherwise on the main listener only with a token (`admin.bearerToken`, `admin.bearerTokenFile`
 * or GATEWAY_ADMIN_TOKEN), otherwise not at all.
 */
import { z } from 'zod';
import { CATALOGUE_ROUTES } from '../catalogue/route-table.js';
import { TracingConfigSchema } from './tracing.js';

const secret = (what: string) => z.string().min(16, `must be at least 16 characters (a random ${what})`);

const LogConfigSchema = z
  .object({
    /** One JSON line per request. */
    enabled: z.boolean().default(true),
    /** Request records are `info` (`warn` for 5xx answers); `warn` keeps only failing requests. */
    level: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    /** `stdout`, `stderr`, or a file path (appended to, directories created). */
    destination: z.string().min(1).default('stdout'),
  })
  .strict()
  .prefault({});

const routes = CATALOGUE_ROUTES;
const CLIENT_HASH = /^[0-9a-f]{16}$/;

const MetricsConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    path: z
      .string()
      .regex(/^\/[A-Za-z0-9._~/-]*$/, 'must be an absolute path such as /metrics')
      .refine((path) => path !== '/healthz', 'must not be /healthz')
      .refine((path) => routes.match('GET', path) === null, 'must not be the path of a legacy operation')
      .default('/metrics'),
  })
  .strict()
  .prefault({});

const AdminConfigSchema = z
  .object({
    /** Required by every admin view when set (`Authorization: Bearer <token>`); GATEWAY_ADMIN_TOKEN overrides it. */
    bearerToken: secret('token').optional(),
    /** A file holding the token (a mounted Secret), read at start; instead of `bearerToken`. */
    bearerTokenFile: z.string().min(1).optional(),
    /** The metrics path answers without the token (scrapers that cannot send one); the other views still need it. */
    openMetrics: z.boolean().default(false),
    /**
     * A separate listener for the admin views; the main listener then does not serve them. Bound
     * beyond loopback (0.0.0.0 in a Pod), it needs a token, else the gateway does not start.
     */
    listen: z
      .object({
        host: z.string().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65_535),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((admin, ctx) => {
    if (admin.bearerToken !== undefined && admin.bearerTokenFile !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['bearerTokenFile'], message: 'give bearerToken or bearerTokenFile, not both' });
    }
  })
  .prefault({});

export const ObservabilityConfigSchema = z
  .object({
    log: LogConfigSchema,
    /** Stable id of this process or pod in the usage log (`instance`); default HOSTNAME / POD_NAME, else hostname:pid. */
    instance: z.string().min(1).max(128).optional(),
    /**
     * Key of the HMAC-SHA256 client and user hashes. Without it a random key is drawn at start, so
     * hashes change at every restart and `clientLabels` cannot match.
     */
    hashKey: secret('secret').optional(),
    /** Client hash (16 hex digits, as logged) → a readable label, written next to the hash. */
    clientLabels: z
      .record(z.string(), z.string().min(1).max(64))
      .default({})
      .superRefine((labels, ctx) => {
        for (const hash of Object.keys(labels)) {
          if (!CLIENT_HASH.test(hash)) ctx.addIssue({ code: 'custom', path: [hash], message: 'must be a client hash: 16 lower-case hex digits, as logged' });
        }
      }),
    metrics: MetricsConfigSchema,
    admin: AdminConfigSchema,
    /** Spans over OTLP (src/config/tracing.ts, docs/tracing.md); off by default. */
    tracing: TracingConfigSchema,
  })
  .strict();

export type ObservabilityConfig = z.output<typeof ObservabilityConfigSchema>;

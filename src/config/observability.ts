/**
 * Config of the usage log, the metrics endpoint and the admin views (`observability` key).
 *
 * The admin views (metrics) are never open to every client of the gateway: they are served on the
 * admin listener (`admin.listen`, loopback by default) when it is set, otherwise on the main
 * listener only when `admin.bearerToken` is set, otherwise not at all.
 */
import { z } from 'zod';
import { CATALOGUE_ROUTES } from '../catalogue/route-table.js';

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
    /** Required by every admin view when set (`Authorization: Bearer <token>`). */
    bearerToken: secret('token').optional(),
    /** A separate listener for the admin views; the main listener then does not serve them. */
    listen: z
      .object({
        host: z.string().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65_535),
      })
      .strict()
      .optional(),
  })
  .strict()
  .prefault({});

export const ObservabilityConfigSchema = z
  .object({
    log: LogConfigSchema,
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
  })
  .strict();

export type ObservabilityConfig = z.output<typeof ObservabilityConfigSchema>;

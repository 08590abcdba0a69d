/**
 * The environment's part of the config, applied the same way at start and at every reload (a
 * reloaded replica and a fresh one, given the same file and the same environment, run the same
 * config and show the same config hash):
 *
 *   PORT                 listen.port
 *   ADMIN_PORT           observability.admin.listen.port (when the config has an admin listener)
 *   GATEWAY_HASH_KEY     observability.hashKey (at least 16 characters)
 *   GATEWAY_ADMIN_TOKEN  observability.admin.bearerToken (at least 16 characters; replaces bearerTokenFile)
 *
 * Errors name the variable and the key it sets, all at once.
 */
import { ObservabilityConfigSchema } from '../config/observability.js';
import type { ObservabilityConfig } from '../config/observability.js';
import type { GatewayConfig } from '../config/schema.js';
import { loadConfigFile } from './config-file.js';
import { adminProblems } from './start-failure.js';

export type Environment = Readonly<Record<string, string | undefined>>;

export type Applied = { readonly ok: true; readonly config: GatewayConfig } | { readonly ok: false; readonly errors: string[] };

/** Every variable this module reads, for --help. */
export const ENVIRONMENT_OVERRIDES: ReadonlyArray<readonly [name: string, key: string]> = [
  ['PORT', 'listen.port'],
  ['ADMIN_PORT', 'observability.admin.listen.port'],
  ['GATEWAY_HASH_KEY', 'observability.hashKey'],
  ['GATEWAY_ADMIN_TOKEN', 'observability.admin.bearerToken'],
];

function portOf(name: string, key: string, value: string, errors: string[]): number | undefined {
  const port = Number(value);
  if (/^\d+$/.test(value.trim()) && port <= 65_535) return port;
  errors.push(`${name} (${key}): a port number from 0 to 65535, got ${JSON.stringify(value)}`);
  return undefined;
}

function secretOf(name: string, key: string, value: string, errors: string[]): string | undefined {
  if (value.length >= 16) return value;
  errors.push(`${name} (${key}): must be at least 16 characters (a random secret)`);
  return undefined;
}

/** The environment's values, checked on their own (so a file with errors and a bad variable are reported together). */
export function readEnvironment(env: Environment): { port?: number; adminPort?: number; hashKey?: string; adminToken?: string; errors: string[] } {
  const errors: string[] = [];
  const port = env['PORT'] ? portOf('PORT', 'listen.port', env['PORT'], errors) : undefined;
  const adminPort = env['ADMIN_PORT'] ? portOf('ADMIN_PORT', 'observability.admin.listen.port', env['ADMIN_PORT'], errors) : undefined;
  const hashKey = env['GATEWAY_HASH_KEY'] ? secretOf('GATEWAY_HASH_KEY', 'observability.hashKey', env['GATEWAY_HASH_KEY'], errors) : undefined;
  const adminToken = env['GATEWAY_ADMIN_TOKEN'] ? secretOf('GATEWAY_ADMIN_TOKEN', 'observability.admin.bearerToken', env['GATEWAY_ADMIN_TOKEN'], errors) : undefined;
  return { ...(port !== undefined ? { port } : {}), ...(adminPort !== undefined ? { adminPort } : {}), ...(hashKey ? { hashKey } : {}), ...(adminToken ? { adminToken } : {}), errors };
}

export function applyEnvironment(config: GatewayConfig, env: Environment): Applied {
  const read = readEnvironment(env);
  if (read.errors.length > 0) return { ok: false, errors: read.errors };
  let { listen } = config;
  if (read.port !== undefined) listen = { ...listen, port: read.port };
  const observability = observabilityWith(config.observability, read);
  return { ok: true, config: listen === config.listen && observability === config.observability ? config : { ...config, listen, observability } };
}

/** The `observability` section with the environment's values applied. */
function observabilityWith(section: ObservabilityConfig, read: ReturnType<typeof readEnvironment>): ObservabilityConfig {
  let observability = section;
  if (read.adminPort !== undefined && observability.admin.listen) {
    observability = { ...observability, admin: { ...observability.admin, listen: { ...observability.admin.listen, port: read.adminPort } } };
  }
  if (read.hashKey !== undefined) observability = { ...observability, hashKey: read.hashKey };
  if (read.adminToken !== undefined) {
    const { bearerTokenFile: _replaced, ...admin } = observability.admin;
    observability = { ...observability, admin: { ...admin, bearerToken: read.adminToken } };
  }
  return observability;
}

/**
 * The admin access of a document with errors elsewhere, as the start would judge it (the
 * environment applied), so its problem comes in the same round; none when the section itself
 * has errors (the schema's).
 */
function adminProblemsOfDocument(document: unknown, read: ReturnType<typeof readEnvironment>): string[] {
  const section = (document as { observability?: unknown } | null)?.observability;
  const parsed = ObservabilityConfigSchema.safeParse(section ?? {});
  return parsed.success ? adminProblems(observabilityWith(parsed.data, read)) : [];
}

/**
 * What the start applies over the file: the environment, the command line's `--workers`, and with
 * `--sandbox` the sandbox's settings, applied to the document before it is validated
 * (src/sandbox/sandbox-config.ts: its upstreams, CA and `api2.noPhotoImageUrl`).
 */
export interface Overrides {
  readonly env: Environment;
  readonly workers?: GatewayConfig['workers'] | undefined;
  readonly prepare?: ((document: unknown) => unknown) | undefined;
}

/** The file, then the overrides: what a start runs, and what every reload of the same file runs. */
export async function loadConfig(path: string, overrides: Overrides): Promise<Applied> {
  const loaded = await loadConfigFile(path, overrides.prepare);
  if (!loaded.ok) {
    const read = readEnvironment(overrides.env);
    const admin = 'document' in loaded ? adminProblemsOfDocument(loaded.document, read).map((error) => `${path}: ${error}`) : [];
    return { ok: false, errors: [...loaded.errors, ...admin, ...read.errors] };
  }
  return applyOverrides(loaded.config, overrides);
}

export function applyOverrides(config: GatewayConfig, overrides: Overrides): Applied {
  const applied = applyEnvironment(config, overrides.env);
  if (!applied.ok || overrides.workers === undefined) return applied;
  return { ok: true, config: { ...applied.config, workers: overrides.workers } };
}

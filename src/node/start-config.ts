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
import type { GatewayConfig } from '../config/schema.js';
import { loadConfigFile } from './config-file.js';

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

export function applyEnvironment(config: GatewayConfig, env: Environment): Applied {
  const errors: string[] = [];
  let { listen, observability } = config;
  if (env['PORT']) {
    const port = portOf('PORT', 'listen.port', env['PORT'], errors);
    if (port !== undefined) listen = { ...listen, port };
  }
  if (env['ADMIN_PORT'] && observability.admin.listen) {
    const port = portOf('ADMIN_PORT', 'observability.admin.listen.port', env['ADMIN_PORT'], errors);
    if (port !== undefined) observability = { ...observability, admin: { ...observability.admin, listen: { ...observability.admin.listen, port } } };
  }
  if (env['GATEWAY_HASH_KEY']) {
    const hashKey = secretOf('GATEWAY_HASH_KEY', 'observability.hashKey', env['GATEWAY_HASH_KEY'], errors);
    if (hashKey !== undefined) observability = { ...observability, hashKey };
  }
  if (env['GATEWAY_ADMIN_TOKEN']) {
    const bearerToken = secretOf('GATEWAY_ADMIN_TOKEN', 'observability.admin.bearerToken', env['GATEWAY_ADMIN_TOKEN'], errors);
    if (bearerToken !== undefined) {
      const { bearerTokenFile: _replaced, ...admin } = observability.admin;
      observability = { ...observability, admin: { ...admin, bearerToken } };
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, config: listen === config.listen && observability === config.observability ? config : { ...config, listen, observability } };
}

/** What the start applies over the file: the environment, and the command line's `--workers`. */
export interface Overrides {
  readonly env: Environment;
  readonly workers?: GatewayConfig['workers'] | undefined;
}

/** The file, then the overrides: what a start runs, and what every reload of the same file runs. */
export async function loadConfig(path: string, overrides: Overrides): Promise<Applied> {
  const loaded = await loadConfigFile(path);
  if (!loaded.ok) return { ok: false, errors: loaded.errors };
  return applyOverrides(loaded.config, overrides);
}

export function applyOverrides(config: GatewayConfig, overrides: Overrides): Applied {
  const applied = applyEnvironment(config, overrides.env);
  if (!applied.ok || overrides.workers === undefined) return applied;
  return { ok: true, config: { ...applied.config, workers: overrides.workers } };
}

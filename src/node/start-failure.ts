/**
 * Why the gateway could not start, in one line for stderr (the caller exits 1): a busy port, a
 * file the config names that cannot be read or parsed (src/node/config-files.ts), an admin listener
 * beyond loopback without a token, or anything else Node refused, never a stack trace.
 */
import type { ObservabilityConfig } from '../config/observability.js';
import { namedClients } from '../migration/rollout/reach.js';
import type { GatewayConfig } from '../config/schema.js';
import { adminAccessOf } from '../observability/node/admin-access.js';
import { fileProblems } from './config-files.js';

/** Everything that would stop this config from starting, found before anything listens, all at once. */
export async function startProblems(config: GatewayConfig): Promise<string[]> {
  return [...(await fileProblems(config)), ...adminProblems(config.observability), ...cohortProblems(config)];
}

/** A plan that names clients needs hashes that stay the same across starts and replicas: a hash key. */
function cohortProblems(config: GatewayConfig): string[] {
  if (config.observability.hashKey !== undefined) return [];
  return namedClients(config)
    .slice(0, 1)
    .map(({ path }) => `${path}: names clients, which needs observability.hashKey (or GATEWAY_HASH_KEY): without it client hashes change at every start and match no label`);
}

/** Why the admin views cannot be had (an admin listener beyond loopback without a token), but for the token file's own problems: fileProblems' (read and judged once). */
export function adminProblems(observability: ObservabilityConfig): string[] {
  const admin = adminAccessOf(observability);
  return admin.ok ? [] : admin.errors.filter((error) => !error.startsWith('observability.admin.bearerTokenFile'));
}

interface SystemError {
  readonly code?: string;
  readonly syscall?: string;
  readonly address?: string;
  readonly port?: number;
  readonly path?: string;
  readonly message?: string;
}

/** Which listener a port is, by what sets it: the main one (PORT, listen.port), https, or admin. */
function listenerOf(port: number, config: Pick<GatewayConfig, 'listen' | 'observability'> | undefined): { set: string; host: string } {
  if (config?.observability.admin.listen && port === config.observability.admin.listen.port && port !== config.listen.port) {
    return { set: 'ADMIN_PORT, or observability.admin.listen.port in the config,', host: 'observability.admin.listen.host' };
  }
  if (config?.listen.https && port === config.listen.https.port && port !== config.listen.port) return { set: 'listen.https.port in the config', host: 'listen.host' };
  return { set: 'PORT, or listen.port in the config,', host: 'listen.host' };
}

/** A start-up failure (a thrown listen or read) as one line; `config` names the listener whose port it was. */
export function describeStartFailure(error: unknown, config?: Pick<GatewayConfig, 'listen' | 'observability'>): string {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SystemError;
  const where = e.port !== undefined ? `${e.address ?? '0.0.0.0'}:${e.port}` : undefined;
  const listener = e.port !== undefined ? listenerOf(e.port, config) : undefined;
  if (e.code === 'EADDRINUSE' && where) return `cannot listen on ${where}: the port is already in use (set ${listener?.set} to a free port)`;
  if (e.code === 'EACCES' && where) return `cannot listen on ${where}: permission denied (ports below 1024 need privileges; set ${listener?.set} to a higher one)`;
  if (e.code === 'EADDRNOTAVAIL' && where) return `cannot listen on ${where}: no such address on this machine (check ${listener?.host})`;
  if (e.path) return `${e.path} cannot be read (${e.code ?? e.message ?? 'error'})`;
  return `cannot start: ${(e.message ?? String(error)).split('\n')[0]}`;
}

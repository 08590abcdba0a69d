/**
 * Why the gateway could not start, in one line for stderr (the caller exits 1): a busy port, a
 * file the config names that cannot be read, or anything else Node refused, never a stack trace.
 */
import { access, constants } from 'node:fs/promises';
import type { GatewayConfig } from '../config/schema.js';
import { adminAccessOf } from '../observability/node/admin-access.js';

/** The files a config names, by key: each must be readable before anything starts listening. */
function namedFiles(config: GatewayConfig): Array<[key: string, path: string]> {
  const files: Array<[string, string | undefined]> = [
    ['listen.https.certFile', config.listen.https?.certFile],
    ['listen.https.keyFile', config.listen.https?.keyFile],
    ['upstreams.legacy.caFile', config.upstreams.legacy.caFile],
    ['upstreams.api2.caFile', config.upstreams.api2?.caFile],
  ];
  return files.filter((entry): entry is [string, string] => entry[1] !== undefined);
}

/** One error line per named file that cannot be read: `listen.https.certFile: /x.pem cannot be read (ENOENT)`. */
export async function unreadableFiles(config: GatewayConfig): Promise<string[]> {
  const errors: string[] = [];
  for (const [key, path] of namedFiles(config)) {
    try {
      await access(path, constants.R_OK);
    } catch (error) {
      errors.push(`${key}: ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  return errors;
}

/** Everything that would stop this config from starting, found before anything listens, all at once. */
export async function startProblems(config: GatewayConfig): Promise<string[]> {
  const errors = await unreadableFiles(config);
  const admin = adminAccessOf(config.observability);
  if (!admin.ok) errors.push(...admin.errors);
  return errors;
}

interface SystemError {
  readonly code?: string;
  readonly syscall?: string;
  readonly address?: string;
  readonly port?: number;
  readonly path?: string;
  readonly message?: string;
}

/** A start-up failure (a thrown listen or read) as one line. */
export function describeStartFailure(error: unknown): string {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SystemError;
  const where = e.port !== undefined ? `${e.address ?? '0.0.0.0'}:${e.port}` : undefined;
  if (e.code === 'EADDRINUSE' && where) return `cannot listen on ${where}: the port is already in use (set PORT, or listen.port in the config, to a free port)`;
  if (e.code === 'EACCES' && where) return `cannot listen on ${where}: permission denied (ports below 1024 need privileges; set PORT to a higher one)`;
  if (e.code === 'EADDRNOTAVAIL' && where) return `cannot listen on ${where}: no such address on this machine (check listen.host)`;
  if (e.path) return `${e.path} cannot be read (${e.code ?? e.message ?? 'error'})`;
  return `cannot start: ${(e.message ?? String(error)).split('\n')[0]}`;
}

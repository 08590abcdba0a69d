/**
 * Who may read the admin views (Node only: a token may come from a file). The token is
 * `observability.admin.bearerToken` (GATEWAY_ADMIN_TOKEN sets it: src/node/start-config.ts), else
 * the trimmed content of `observability.admin.bearerTokenFile`. An admin listener bound beyond
 * loopback (deploy/k8s binds 0.0.0.0:9090) without a token is refused: the gateway does not start.
 */
import { readFileSync } from 'node:fs';
import type { ObservabilityConfig } from '../../config/observability.js';

export interface AdminAccess {
  readonly bearerToken: string | undefined;
  readonly openMetrics: boolean;
}

export const MIN_TOKEN = 16;

/** 127.0.0.0/8, ::1 and localhost: only this machine can connect. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare) || /^::ffff:127(\.\d{1,3}){3}$/.test(bare);
}

/** The admin access of a config, or the reasons it cannot be had (each naming its key), all at once. */
export function adminAccessOf(obs: ObservabilityConfig): { ok: true; access: AdminAccess } | { ok: false; errors: string[] } {
  const { admin } = obs;
  const errors: string[] = [];
  let token = admin.bearerToken;
  if (token === undefined && admin.bearerTokenFile !== undefined) {
    try {
      token = readFileSync(admin.bearerTokenFile, 'utf8').trim();
      if (token.length < MIN_TOKEN) errors.push(`observability.admin.bearerTokenFile: ${admin.bearerTokenFile} must hold a token of at least ${MIN_TOKEN} characters`);
    } catch (error) {
      errors.push(`observability.admin.bearerTokenFile: ${admin.bearerTokenFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  if (errors.length === 0 && token === undefined && admin.listen && !isLoopback(admin.listen.host) && obs.metrics.enabled) {
    errors.push(
      `observability.admin.listen.host: ${admin.listen.host} is beyond loopback, so the admin views need a bearer token: ` +
        'set GATEWAY_ADMIN_TOKEN, observability.admin.bearerTokenFile or observability.admin.bearerToken (at least 16 characters)',
    );
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, access: { bearerToken: token, openMetrics: admin.openMetrics } };
}

/** As `adminAccessOf`, throwing its reasons as one error (a start that cannot happen). */
export function adminAccess(obs: ObservabilityConfig): AdminAccess {
  const result = adminAccessOf(obs);
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.access;
}

/**
 * What a request gets from the plain-http credentials policy (`plainHttpCredentials`), as a pure
 * decision; src/pipeline/scheme-policy.ts applies it. The table of cases: docs/proxy-mode.md.
 *
 * DECISION: a proxy-mode client is redirected to the legacy host's default https port, never to
 * the gateway's own (it comes back with `CONNECT <legacy host>:443`, which the gateway terminates);
 * without a TLS listener it gets 403, since a redirect would only move the failure. A redirect
 * only ever names a configured host, so a client's api_key is never sent elsewhere.
 */
import { hostnameOf } from './hosts.js';

export type PlainHttpPolicy = 'allow' | 'redirect' | 'reject';

export interface SchemeFacts {
  readonly scheme: 'http' | 'https';
  readonly credentials: boolean;
  readonly policy: PlainHttpPolicy;
  /** The client uses the gateway as its HTTP proxy (absolute-form target). */
  readonly absoluteForm: boolean;
  /** The `Host` the client named (for a proxy-mode client: the authority of its target). */
  readonly host: string | undefined;
  /** Whether a redirect may name that host (a legacy or accepted host). */
  readonly redirectable: boolean;
  /** The gateway's https port, when it has a TLS listener. */
  readonly httpsPort: number | undefined;
  readonly path: string;
  readonly query: string;
}

export type SchemeDecision =
  | { readonly kind: 'serve'; readonly insecure: boolean }
  | { readonly kind: 'redirect'; readonly location: string }
  | { readonly kind: 'refuse'; readonly message: string };

const OVER_HTTPS = 'Credentials (api_key or Authorization) must be sent over https to this gateway.';

export function decideScheme(facts: SchemeFacts): SchemeDecision {
  if (facts.scheme === 'https' || !facts.credentials) return { kind: 'serve', insecure: false };
  if (facts.policy === 'allow') return { kind: 'serve', insecure: true };
  if (facts.policy === 'reject' || !facts.host || !facts.redirectable) return { kind: 'refuse', message: OVER_HTTPS };
  const target = `${facts.path}${facts.query ? `?${facts.query}` : ''}`;
  const hostname = hostnameOf(facts.host);
  if (facts.absoluteForm) {
    if (facts.httpsPort === undefined) {
      return { kind: 'refuse', message: `${OVER_HTTPS} Request https://${hostname}/ through this proxy only once it has a TLS listener, or call the gateway directly over https.` };
    }
    return { kind: 'redirect', location: `https://${hostname}${target}` };
  }
  const port = facts.httpsPort && facts.httpsPort !== 443 ? `:${facts.httpsPort}` : '';
  return { kind: 'redirect', location: `https://${hostname}${port}${target}` };
}

/**
 * What a request gets from the plain-http credentials policy (`plainHttpCredentials`), as a pure
 * decision; src/pipeline/scheme-policy.ts applies it. docs/proxy-mode.md tells operators.
 *
 * Credentials (an `api_key` or `Authorization`) over plain http mark the request insecure, then:
 *
 *   policy     direct client (origin-form)        proxy-mode client (absolute-form target)
 *   allow      served                             served
 *   redirect   308 https://host[:httpsPort]/…     with a TLS listener: 308 https://<legacy host>/…
 *                                                 (the client comes back through the gateway with
 *                                                 CONNECT <legacy host>:443, which the gateway
 *                                                 terminates itself with its own certificate:
 *                                                 src/node/connect-termination.ts);
 *                                                 without one: 403
 *   reject     403                                403
 *
 * DECISION: a proxy-mode client is redirected to the legacy host's default https port, never to
 * the gateway's own https port: it reaches the URL through its proxy (the gateway), which takes
 * `CONNECT <legacy host>:443`. Without a TLS listener the gateway cannot take that CONNECT (it
 * never tunnels onward: the legacy service would be reached past the gateway), so a redirect
 * would only move the failure; the 403 says what to change instead.
 * A redirect only ever names a configured host (legacy or accepted): with any other `Host` the
 * request is refused, so the gateway never sends a client, and its api_key, elsewhere.
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

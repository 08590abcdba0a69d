/**
 * Scheme and forwarding: works out how the client reached the gateway (TLS, or a trusted proxy's
 * `X-Forwarded-Proto`), and applies the plain-http credentials policy. Every operation is
 * accepted over both schemes, whatever the legacy document lists; credentials over plain http
 * mark the request insecure and are then allowed, redirected to https (308) or refused (403).
 * A redirect only ever names a configured host (legacy or accepted): with any other `Host` the
 * request is refused instead, so the gateway never sends a client, and its api_key, elsewhere.
 */
import { carriesCredentials, viewClient } from '../http/client-view.js';
import { gatewayError } from '../http/gateway-error.js';
import type { PeerMatcher } from '../http/trusted-proxies.js';
import { wantsJson } from '../legacy/render.js';
import type { RuntimeBindings } from '../gateway/env.js';
import type { Guard } from './guard.js';
import { hostnameOf } from './host-guard.js';

export type PlainHttpPolicy = 'allow' | 'redirect' | 'reject';

export function schemePolicy(
  runtime: RuntimeBindings,
  trusted: PeerMatcher,
  policy: PlainHttpPolicy,
  httpsPort: number | undefined,
  /** Hosts a redirect may name (legacy and accepted hosts): never one a client made up. */
  redirectable: (authority: string) => boolean,
): Guard {
  return (c) => {
    const headers = c.get('headers');
    const client = viewClient(runtime.peer(c), headers, trusted);
    c.set('client', client);
    const record = c.get('record');
    record.scheme = client.scheme;
    record.absoluteForm = runtime.absoluteForm(c);
    if (client.scheme === 'https' || !carriesCredentials(c.get('target').query, headers)) return undefined;

    record.insecure = true;
    if (policy === 'allow') return undefined;
    if (policy === 'redirect' && client.host && redirectable(client.host)) {
      const port = httpsPort && httpsPort !== 443 ? `:${httpsPort}` : '';
      const { path, query } = c.get('target');
      return new Response(null, {
        status: 308,
        headers: { location: `https://${hostnameOf(client.host)}${port}${path}${query ? `?${query}` : ''}`, 'cache-control': 'no-store' },
      });
    }
    record.error = 'insecure-credentials';
    return gatewayError(
      403,
      'insecure-credentials',
      'Credentials (api_key or Authorization) must be sent over https to this gateway.',
      wantsJson(headers['accept'], headers['content-type']),
    );
  };
}

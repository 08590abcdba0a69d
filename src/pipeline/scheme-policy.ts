/**
 * Scheme and forwarding: works out how the client reached the gateway (TLS, or a trusted proxy's
 * `X-Forwarded-Proto`), and applies the plain-http credentials policy. Every operation is
 * accepted over both schemes, whatever the legacy document lists; credentials over plain http
 * mark the request insecure and are then allowed, redirected to https (308) or refused (403).
 * What each client gets, proxy-mode clients included, is decided in src/http/scheme-decision.ts.
 */
import { carriesCredentials, viewClient } from '../http/client-view.js';
import { answer } from '../http/answer.js';
import { gatewayError } from '../http/gateway-error.js';
import type { PeerMatcher } from '../http/trusted-proxies.js';
import { wantsJson } from '../legacy/render.js';
import type { RuntimeBindings } from '../gateway/env.js';
import type { Guard } from './guard.js';
import { decideScheme } from '../http/scheme-decision.js';
import type { PlainHttpPolicy } from '../http/scheme-decision.js';

export type { PlainHttpPolicy };

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
    const { path, query } = c.get('target');
    const decision = decideScheme({
      scheme: client.scheme,
      credentials: carriesCredentials(query, headers),
      policy,
      absoluteForm: record.absoluteForm,
      host: client.host,
      redirectable: client.host !== undefined && redirectable(client.host),
      httpsPort,
      path,
      query,
    });
    if (decision.kind === 'serve') {
      if (decision.insecure) record.insecure = true;
      return undefined;
    }
    record.insecure = true;
    if (decision.kind === 'redirect') {
      return answer(308, { location: decision.location, 'cache-control': 'no-store' });
    }
    record.error = 'insecure-credentials';
    return gatewayError(403, 'insecure-credentials', decision.message, wantsJson(headers['accept'], headers['content-type']));
  };
}

/**
 * The plain-http credentials policy. Every operation is accepted over both schemes, whatever the
 * legacy document lists; credentials over plain http mark the request insecure (the request
 * context notes it on arrival) and are then allowed, redirected to https (308) or refused (403).
 * What each client gets, proxy-mode clients included, is decided in src/http/scheme-decision.ts;
 * how the client reached the gateway (TLS, or a trusted proxy's `X-Forwarded-Proto`), in
 * src/http/client-view.ts.
 */
import { answer } from '../http/answer.js';
import type { Guard } from './guard.js';
import { refused } from './parts.js';
import { decideScheme } from '../http/scheme-decision.js';
import type { PlainHttpPolicy } from '../http/scheme-decision.js';

export type { PlainHttpPolicy };

export function schemePolicy(
  policy: PlainHttpPolicy,
  httpsPort: number | undefined,
  /** Hosts a redirect may name (legacy and accepted hosts): never one a client made up. */
  redirectable: (authority: string) => boolean,
): Guard {
  return (arrival) => {
    // Only credentials over plain http are the policy's business (`insecure`, noted on arrival).
    if (!arrival.insecure) return undefined;
    const { client } = arrival;
    const decision = decideScheme({
      scheme: client.scheme,
      credentials: true,
      policy,
      absoluteForm: arrival.absoluteForm,
      host: client.host,
      redirectable: client.host !== undefined && redirectable(client.host),
      httpsPort,
      path: arrival.path,
      query: arrival.query,
    });
    if (decision.kind === 'serve') return undefined;
    if (decision.kind === 'redirect') return { answer: answer(308, { location: decision.location, 'cache-control': 'no-store' }) };
    return refused(403, 'insecure-credentials', decision.message, arrival.json);
  };
}

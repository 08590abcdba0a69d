/**
 * How the gateway sees the client of one request: the scheme it used and its address chain
 * (whether it sent credentials in clear is the arrival's: src/gateway/arrival.ts). `X-Forwarded-*` headers are believed only from a trusted
 * proxy; from anybody else they are ignored and replaced.
 */
import type { PeerMatcher } from './trusted-proxies.js';
import { unmapIpv4 } from './trusted-proxies.js';

export interface Peer {
  /** The address of the TCP peer. */
  readonly address: string;
  /** Whether the connection to the gateway is TLS. */
  readonly tls: boolean;
}

export interface ClientView {
  readonly scheme: 'http' | 'https';
  /** Value for `X-Forwarded-For`. */
  readonly forwardedFor: string;
  readonly host: string | undefined;
}

export function viewClient(
  peer: Peer,
  headers: Readonly<Record<string, string>>,
  trusted: PeerMatcher,
): ClientView {
  const address = unmapIpv4(peer.address);
  const fromTrustedProxy = trusted(peer.address);
  let scheme: 'http' | 'https' = peer.tls ? 'https' : 'http';
  if (fromTrustedProxy && !peer.tls) {
    const proto = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
    if (proto === 'https' || proto === 'http') scheme = proto;
  }
  const priorChain = fromTrustedProxy ? headers['x-forwarded-for']?.trim() : undefined;
  return {
    scheme,
    forwardedFor: priorChain ? `${priorChain}, ${address}` : address,
    host: headers['host'],
  };
}

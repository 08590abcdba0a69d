/**
 * Trusted proxies: the peers whose `X-Forwarded-Proto`/`X-Forwarded-For` the gateway believes.
 * Entries are addresses or CIDR ranges, IPv4 or IPv6 (`10.0.0.0/8`, `fd00::/8`, `::1`).
 * IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`, how a dual-stack socket shows an IPv4 peer) are
 * matched as the IPv4 address they carry, on both sides: a peer `::ffff:10.1.2.3` is in
 * `10.0.0.0/8`, and an entry `::ffff:10.0.0.0/104` is the range `10.0.0.0/8`.
 *
 * Parsing and matching are ipaddr.js's (the library behind Express's proxy-addr): it parses every
 * IPv6 notation (compressed, mixed, zone ids) which a hand-written matcher got wrong (an IPv6
 * range was compared as one address, so `fd00::1` was not in `fd00::/8`). proxy-addr itself is
 * built around Express's request objects and still depends on ipaddr.js 1.x.
 */
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

export type PeerMatcher = (address: string) => boolean;

type Range = readonly [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * The address as ipaddr.js sees it, IPv4-mapped IPv6 turned into IPv4; null when not an address.
 * IPv4 only in its four-part decimal form: `10.0.0` or `0x0a.0.0.1` are not taken as addresses.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address)) return null;
  return ipaddr.process(address);
}

/** `10.0.0.0/8`, `fd00::/8`, or one address (a range of one); null when it is neither. */
export function parseRange(entry: string): Range | null {
  const slash = entry.indexOf('/');
  if (slash === -1) {
    const address = parseAddress(entry);
    return address ? [address, address.kind() === 'ipv4' ? 32 : 128] : null;
  }
  if (!ipaddr.IPv4.isValidCIDRFourPartDecimal(entry) && !ipaddr.IPv6.isValidCIDR(entry)) return null;
  const [address, bits] = ipaddr.parseCIDR(entry);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    // ::ffff:a.b.c.d/n covers IPv4 addresses only when n >= 96.
    return bits >= 96 ? [(address as ipaddr.IPv6).toIPv4Address(), bits - 96] : [address, bits];
  }
  return [address, bits];
}

/** Whether a configured entry is an address or a CIDR range (for config validation). */
export function isAddressOrRange(entry: string): boolean {
  return parseRange(entry) !== null;
}

/**
 * Peer addresses repeat (keep-alive clients, the load balancer's few addresses), and parsing one
 * costs ipaddr.js several µs (more when it is not an address): each answer about an address is
 * kept for the next requests, for a bounded number of addresses.
 */
const REMEMBERED_ADDRESSES = 4096;

const unmapped = new LRUCache<string, string>({ max: REMEMBERED_ADDRESSES });

/** The address without an IPv4-mapped prefix (`::ffff:10.0.0.1` → `10.0.0.1`); others unchanged. */
export function unmapIpv4(address: string): string {
  let known = unmapped.get(address);
  if (known === undefined) {
    const parsed = parseAddress(address);
    known = parsed && parsed.kind() === 'ipv4' && address.includes(':') ? parsed.toString() : address;
    unmapped.set(address, known);
  }
  return known;
}

export function compileTrustedProxies(entries: readonly string[]): PeerMatcher {
  const ranges = entries.map(parseRange).filter((range): range is Range => range !== null);
  if (ranges.length === 0) return () => false;
  const trusted = new LRUCache<string, boolean>({ max: REMEMBERED_ADDRESSES });
  const match = (peer: string): boolean => {
    const address = parseAddress(peer);
    if (!address) return false;
    const kind = address.kind();
    return ranges.some(([base, bits]) => base.kind() === kind && address.match(base, bits));
  };
  return (peer) => {
    let known = trusted.get(peer);
    if (known === undefined) {
      known = match(peer);
      trusted.set(peer, known);
    }
    return known;
  };
}

/**
 * Trusted proxies: the peers whose `X-Forwarded-Proto`/`X-Forwarded-For` the gateway believes.
 * Entries are exact addresses (IPv4 or IPv6) or IPv4 CIDR ranges. IPv4-mapped IPv6 peers
 * (`::ffff:10.0.0.1`) are matched as IPv4.
 */

export type PeerMatcher = (address: string) => boolean;

function ipv4ToInt(address: string): number | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^[0-9]{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

export function unmapIpv4(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

export function compileTrustedProxies(entries: readonly string[]): PeerMatcher {
  const exact = new Set<string>();
  const ranges: Array<{ base: number; mask: number }> = [];
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const v4 = ipv4ToInt(unmapIpv4(address));
    if (bits !== undefined && v4 !== null) {
      const prefix = Number(bits);
      const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
      ranges.push({ base: (v4 & mask) >>> 0, mask });
    } else {
      exact.add(unmapIpv4(address).toLowerCase());
    }
  }
  if (exact.size === 0 && ranges.length === 0) return () => false;
  return (peer) => {
    const address = unmapIpv4(peer).toLowerCase();
    if (exact.has(address)) return true;
    const v4 = ipv4ToInt(address);
    return v4 !== null && ranges.some((range) => ((v4 & range.mask) >>> 0) === range.base);
  };
}

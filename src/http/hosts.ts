/**
 * Host names in an authority (`Host`, an absolute-form target, a CONNECT target), compared as the
 * gateway compares them everywhere: case-insensitively, with or without a port.
 */

/** Host without port, lower-case; `[::1]:80` → `[::1]`. */
export function hostnameOf(authority: string): string {
  const lower = authority.trim().toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  const colon = lower.lastIndexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}

/** An entry with a port matches that authority only; an entry without one matches any port. */
export function hostMatcher(hosts: readonly string[]): (authority: string) => boolean {
  const exact = new Set(hosts.map((h) => h.toLowerCase()));
  const anyPort = new Set(hosts.filter((h) => hostnameOf(h) === h.toLowerCase()).map(hostnameOf));
  return (authority) => {
    const lower = authority.trim().toLowerCase();
    return exact.has(lower) || anyPort.has(hostnameOf(lower));
  };
}

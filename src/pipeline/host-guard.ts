/**
 * The gateway is not an open proxy. With `acceptedHosts` configured, a `Host` that is neither a
 * legacy host nor an accepted one is refused with 421 Misdirected Request. (Absolute-form targets
 * naming a foreign host are refused earlier, by the runtime adapter, with the same rule:
 * `isLegacyAuthority`.) The upstream is always the configured one, never derived from `Host`.
 */
import type { Guard } from './guard.js';
import { refused } from './parts.js';

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

/** Refuses a Host that `accepted` (the legacy and accepted hosts) does not match; used only with `acceptedHosts` (without, any Host is served). */
export function hostGuard(accepted: (authority: string) => boolean): Guard {
  return ({ headers, json }) => {
    const host = headers['host'];
    if (host && accepted(host)) return undefined;
    return refused(421, 'misdirected', 'Misdirected request: this gateway does not serve that host.', json);
  };
}

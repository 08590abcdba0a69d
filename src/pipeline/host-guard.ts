/**
 * The gateway is not an open proxy. With `acceptedHosts` configured, a `Host` that is neither a
 * legacy host nor an accepted one is refused with 421 Misdirected Request. (Absolute-form targets
 * naming a foreign host are refused earlier, by the runtime adapter, with the same rule:
 * `isLegacyAuthority`.) The upstream is always the configured one, never derived from `Host`.
 * The hosts are matched by src/http/hosts.ts.
 */
import type { Guard } from './guard.js';
import { refused } from './parts.js';

/** Refuses a Host that `accepted` (the legacy and accepted hosts) does not match; used only with `acceptedHosts` (without, any Host is served). */
export function hostGuard(accepted: (authority: string) => boolean): Guard {
  return ({ headers, json }) => {
    const host = headers['host'];
    if (host && accepted(host)) return undefined;
    return refused(421, 'misdirected', 'Misdirected request: this gateway does not serve that host.', json);
  };
}

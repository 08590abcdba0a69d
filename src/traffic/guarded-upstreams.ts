/**
 * The upstream clients the dispatcher uses: each behind its circuit breaker when the config
 * enables it (traffic.breakers.<upstream>), and the live state the admin views show.
 */
import type { GatewayConfig } from '../config/schema.js';
import type { Upstreams } from '../upstream/types.js';
import { withBreaker } from './breaker.js';
import type { Breaker, BreakerState } from './breaker.js';
import type { ShadowComparator } from './shadow.js';

export interface TrafficState {
  readonly shadow: ShadowComparator | null;
  readonly breakers: Readonly<Record<string, Breaker>>;
}

export function guardedUpstreams(
  upstreams: Upstreams,
  config: GatewayConfig,
  onTransition?: (upstream: string, from: BreakerState, to: BreakerState) => void,
): Upstreams & { readonly breakers: Readonly<Record<string, Breaker>> } {
  const breakers: Record<string, Breaker> = {};
  const guard = (name: 'legacy' | 'api2', client: Upstreams['legacy']) => {
    const settings = config.traffic.breakers[name];
    if (!settings.enabled) return client;
    const breaker = withBreaker(client, {
      failureThreshold: settings.failureThreshold,
      openMs: settings.openMs,
      ...(onTransition ? { onTransition } : {}),
    });
    breakers[name] = breaker;
    return breaker.client;
  };
  const legacy = guard('legacy', upstreams.legacy);
  const api2 = upstreams.api2 ? guard('api2', upstreams.api2) : undefined;
  return api2 ? { legacy, api2, breakers } : { legacy, breakers };
}

/**
 * The one place a route's mode, canary percent and fallback are decided per request: from the
 * config, or, for an operation with a rollout plan, from its rollout state (the step in force).
 *
 * During a rollout fallback is always on (a safe operation whose api2 answer failed is answered
 * by legacy), and the requests legacy answers in a percentage step are compared with api2 in the
 * background, as in shadow mode, so that a mapping that starts to differ is seen at every step
 * below 100 % (at 100 % the shadow stage asks legacy in the background instead). A write on such a route while the api2 breaker is open goes to legacy
 * (src/pipeline/choose-side.ts): it was never sent to api2, so nothing is retried.
 */
import type { OperationId } from '../../catalogue/operations.js';
import type { GatewayConfig, RouteMode } from '../../config/schema.js';
import type { ClientIdentity } from '../../request/identity.js';
import { canaryChoosesApi2 } from '../../traffic/canary.js';
import type { Cohort, Exposure } from './steps.js';

export interface RouteInForce {
  readonly mode: RouteMode;
  /** canary: the share of clients sent to api2 (percent). */
  readonly canaryPercent: number;
  /** A safe operation's failed api2 answer is answered by legacy. */
  readonly fallback: boolean;
  /** The answers legacy gives on this route are compared with api2 in the background (safe operations only). */
  readonly compare: boolean;
  /** Decided by a rollout's step (not the config's mode). */
  readonly rollout: boolean;
  /** A rolled-out route's page epoch: api2's pages are keyed with it (a move off api2 leaves none behind); null without a rollout. */
  readonly pageEpoch: number | null;
  /** The clients a rollout plan chose for api2 or holds on legacy (canary only), or null. */
  readonly cohort: Cohort | null;
  /** A rolled-out route's step in force began then (RolloutState.since; the usage line's `stepSince`); null without a rollout. */
  readonly stepSince: number | null;
}

/**
 * The side a canary route gives a client: legacy for a client the plan holds back, api2 for one it
 * chose (by its label or its client hash), else the sticky percentage (src/traffic/canary.ts).
 */
export function canarySide(route: Pick<RouteInForce, 'canaryPercent' | 'cohort'>, client: ClientIdentity | undefined, apiKey: string, user: string | null): 'legacy' | 'api2' {
  const named = (names: ReadonlySet<string>) => client !== undefined && (names.has(client.hash) || (client.label !== undefined && names.has(client.label)));
  if (route.cohort && named(route.cohort.held)) return 'legacy';
  if (route.cohort && named(route.cohort.chosen)) return 'api2';
  return canaryChoosesApi2(route.canaryPercent, apiKey, user) ? 'api2' : 'legacy';
}

/** What the rollout says a route exposes now; undefined for a route without a plan. Read per request: synchronous. */
export interface LiveRoutes {
  route(id: OperationId): Exposure | undefined;
}

export type RouteLookup = (id: OperationId) => RouteInForce;

const LEGACY: RouteInForce = { mode: 'legacy', canaryPercent: 0, fallback: false, compare: false, rollout: false, pageEpoch: null, cohort: null, stepSince: null };

export function routesInForce(config: GatewayConfig, live: LiveRoutes | undefined): RouteLookup {
  const configured = new Map<string, RouteInForce>();
  for (const [id, route] of Object.entries(config.routes)) {
    configured.set(id, { mode: route.mode, canaryPercent: route.canaryPercent ?? 0, fallback: route.fallback, compare: route.mode === 'shadow', rollout: false, pageEpoch: null, cohort: null, stepSince: null });
  }
  const planned = new Set(Object.entries(config.routes).flatMap(([id, route]) => (route.rollout ? [id] : [])));
  if (!live || planned.size === 0) return (id) => configured.get(id) ?? LEGACY;
  // One object per exposure the rollout hands out (a new one per state read), not one per request.
  const byExposure = new WeakMap<Exposure, RouteInForce>();
  return (id) => {
    const exposure = planned.has(id) ? live.route(id) : undefined;
    if (!exposure) return configured.get(id) ?? LEGACY;
    let route = byExposure.get(exposure);
    if (!route) {
      route = { mode: exposure.mode, canaryPercent: exposure.canaryPercent, fallback: true, compare: exposure.mode === 'shadow' || exposure.mode === 'canary', rollout: true, pageEpoch: exposure.pageEpoch ?? 0, cohort: exposure.cohort ?? null, stepSince: exposure.since ?? null };
      byExposure.set(exposure, route);
    }
    return route;
  };
}

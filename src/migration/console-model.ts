/**
 * What the live console shows, from the live counters' window and the config in force: per
 * operation the routing (mode, canary %, shadow sample rate, fallback), the window's evidence and
 * the readiness model's verdict on it (the same `judge` as the report); per client its top
 * blockers; whose counters they are (the fleet's, or this replica's).
 */
import { OPERATION_IDS } from '../catalogue/operations.js';
import type { GatewayConfig, RouteMode } from '../config/schema.js';
import type { BlockerKind } from './blockers.js';
import type { LiveWindow } from './live-counters.js';
import { headline, judgeAll } from './readiness.js';
import type { Evidence, Thresholds, Verdict } from './readiness.js';

export interface ConsoleRoute {
  readonly mode: RouteMode;
  readonly canaryPercent: number | null;
  readonly shadowSampleRate: number | null;
  readonly fallback: boolean;
}

export interface ConsoleOperation extends Verdict {
  readonly evidence: Evidence;
  readonly route: ConsoleRoute;
}

export interface ConsoleModel {
  readonly scope: LiveWindow['scope'];
  readonly fromMs: number;
  readonly toMs: number;
  readonly headline: string;
  readonly api2BreakerState: LiveWindow['api2BreakerState'];
  readonly api2BreakerOpens: number;
  readonly operations: readonly ConsoleOperation[];
  readonly clients: ReadonlyArray<{ readonly client: string; readonly label: string | undefined; readonly blockers: ReadonlyArray<{ readonly kind: BlockerKind; readonly requests: number }> }>;
  /** Whether clients can be told apart (client hashes are written only with the usage log on). */
  readonly clientsKnown: boolean;
  readonly configHash: string;
}

/** The readiness model's evidence from a live window (the same shape the report builds from the log). */
export function evidenceOfWindow(window: LiveWindow): Map<string, Evidence> {
  return new Map(
    [...window.operations].map(([operation, counts]) => [
      operation,
      { operation, legacy: counts.legacy, api2: counts.api2, fallbacks: counts.fallbacks, shadow: counts.shadow, breakerOpens: window.api2BreakerOpens },
    ]),
  );
}

function routeOf(config: GatewayConfig, operation: string): ConsoleRoute {
  const route = (config.routes as Partial<Record<string, GatewayConfig['routes'][keyof GatewayConfig['routes']]>>)[operation];
  const mode = route?.mode ?? 'legacy';
  return {
    mode,
    canaryPercent: mode === 'canary' ? (route?.canaryPercent ?? 0) : null,
    shadowSampleRate: mode === 'shadow' ? (route?.shadow?.sampleRate ?? 1) : null,
    fallback: route?.fallback ?? false,
  };
}

export function consoleModel(window: LiveWindow, config: GatewayConfig, thresholds: Thresholds, configHash: string): ConsoleModel {
  const evidence = evidenceOfWindow(window);
  const verdicts = judgeAll(evidence, thresholds, window.api2BreakerOpens).filter((v) => (OPERATION_IDS as readonly string[]).includes(v.operation));
  const labels = config.observability.clientLabels;
  return {
    scope: window.scope,
    fromMs: window.fromMs,
    toMs: window.toMs,
    headline: headline(verdicts),
    api2BreakerState: window.api2BreakerState,
    api2BreakerOpens: window.api2BreakerOpens,
    operations: verdicts.map((verdict) => ({ ...verdict, evidence: evidence.get(verdict.operation)!, route: routeOf(config, verdict.operation) })),
    clients: window.clients.map((c) => ({ client: c.client, label: labels[c.client], blockers: c.blockers })),
    clientsKnown: config.observability.log.enabled,
    configHash,
  };
}

/**
 * What the live console shows: per operation the routing in force (mode, canary %, shadow sample
 * rate, fallback; a rollout's step where one runs), the evidence of the config version in force
 * and the one judgement's state on it (src/migration/judgement/: the same states the report,
 * /admin/* and the metrics show); per client its top blockers; whose counters they are.
 */
import type { GatewayConfig, RouteMode } from '../config/schema.js';
import type { BlockerKind } from '../migration/blockers.js';
import type { JudgedNow } from '../migration/judgement/source.js';
import type { Judgement } from '../migration/judgement/types.js';
import type { LiveWindow } from '../migration/live-counters.js';
import type { Evidence } from '../migration/readiness.js';
import type { RolloutSnapshot } from '../migration/rollout/runner.js';
import type { DiffExample } from '../traffic/diff-examples.js';

export interface ConsoleRoute {
  /** The mode in force (a rollout's step, else the configured mode). */
  readonly mode: RouteMode;
  readonly canaryPercent: number | null;
  readonly shadowSampleRate: number | null;
  readonly fallback: boolean;
}

export interface ConsoleOperation {
  readonly operation: string;
  readonly judgement: Judgement;
  readonly evidence: Evidence;
  readonly route: ConsoleRoute;
}

export interface ConsoleModel {
  readonly scope: LiveWindow['scope'];
  readonly fromMs: number;
  readonly toMs: number;
  readonly api2BreakerState: LiveWindow['api2BreakerState'];
  readonly api2BreakerOpens: number;
  readonly operations: readonly ConsoleOperation[];
  readonly clients: ReadonlyArray<{ readonly client: string; readonly label: string | undefined; readonly blockers: ReadonlyArray<{ readonly kind: BlockerKind; readonly requests: number }> }>;
  /** Whether clients can be told apart (client hashes are written only with the usage log on). */
  readonly clientsKnown: boolean;
  readonly configHash: string;
  /** Epoch ms the config version in force came into force: the evidence starts here (or 15 minutes ago). */
  readonly configSince: number;
  /** Epoch ms this process took the config in force (0: not known). */
  readonly startedMs: number;
  /**
   * Where the evidence shown begins: the window's start, never before the config came into force
   * nor, on one replica's counters, before this process started (nothing was counted before it).
   */
  readonly evidenceFromMs: number;
  /** Recent example pairs of the differing paths, per operation (this replica's comparisons under the config in force). */
  readonly differences: ReadonlyArray<{ readonly operation: string; readonly examples: readonly DiffExample[] }>;
}

/** The evidence of each operation from a live window (the same shape the report builds from the log). */
export function evidenceOfWindow(window: LiveWindow): Map<string, Evidence> {
  return new Map(
    [...window.operations].map(([operation, counts]) => [
      operation,
      { operation, legacy: counts.legacy, api2: counts.api2, fallbacks: counts.fallbacks, shadow: counts.shadow, breakerOpens: window.api2BreakerOpens },
    ]),
  );
}

/** The routing in force: a rollout's exposure where one runs, else the configured route. */
function routeOf(config: GatewayConfig, operation: string, rollout: RolloutSnapshot | undefined): ConsoleRoute {
  const route = (config.routes as Partial<Record<string, GatewayConfig['routes'][keyof GatewayConfig['routes']]>>)[operation];
  const exposure = route?.rollout ? rollout?.operations.find((v) => v.operation === operation)?.exposure : undefined;
  const mode = exposure?.mode ?? route?.mode ?? 'legacy';
  const canary = exposure ? exposure.canaryPercent : (route?.canaryPercent ?? 0);
  return {
    mode,
    canaryPercent: mode === 'canary' ? canary : null,
    shadowSampleRate: mode === 'shadow' || (exposure !== undefined && mode === 'canary') ? (route?.shadow?.sampleRate ?? 1) : null,
    fallback: exposure !== undefined || (route?.fallback ?? false),
  };
}

export function consoleModel(judged: JudgedNow, config: GatewayConfig, rollout?: RolloutSnapshot, differences: ConsoleModel['differences'] = [], startedMs = 0): ConsoleModel {
  const { window } = judged;
  const started = Number.isFinite(startedMs) ? startedMs : 0;
  const evidence = evidenceOfWindow(window);
  const labels = config.observability.clientLabels;
  return {
    scope: window.scope,
    fromMs: window.fromMs,
    toMs: window.toMs,
    api2BreakerState: window.api2BreakerState,
    api2BreakerOpens: window.api2BreakerOpens,
    operations: judged.judgements.map((judgement) => ({ operation: judgement.operation, judgement, evidence: evidence.get(judgement.operation)!, route: routeOf(config, judgement.operation, rollout) })),
    clients: window.clients.map((c) => ({ client: c.client, label: labels[c.client], blockers: c.blockers })),
    clientsKnown: config.observability.log.enabled,
    configHash: judged.configHash,
    configSince: judged.configSince,
    startedMs: started,
    evidenceFromMs: Math.min(window.toMs, Math.max(window.fromMs, judged.configSince, window.scope === 'replica' ? started : 0)),
    differences: differences.filter((d) => d.examples.length > 0),
  };
}

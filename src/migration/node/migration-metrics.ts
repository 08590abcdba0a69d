/**
 * Node-only: the migration's Prometheus metrics, beside the request metrics of prometheus.ts (whose
 * `gateway_requests_total{operation,mode,status_class}` is the requests by operation × side × status
 * class), on the same registry:
 *
 *   gateway_fallbacks_total{operation}                  api2 failed, legacy answered
 *   gateway_shadow_comparisons_total{operation,outcome} outcome: agreed, differed, raced, api2-unavailable, skipped (compared = agreed + differed)
 *   gateway_canary_requests_total{operation,side}       requests of canary routes, by the side that answered
 *   gateway_route_canary_percent{operation}             gauge: the share of clients api2 answers on each route in force (0 legacy/shadow, the step's % canary, 100 api2)
 *   gateway_route_mode{operation,mode}                  gauge: 1 for each operation's route mode in force (a rollout's step, else the configured mode)
 *   gateway_operation_state{operation,state}            gauge: 1 for each operation's one state (src/migration/judgement/), 0 for the others
 *   gateway_breaker_state{upstream,state}               gauge: 1 for the state each upstream's breaker is in
 *   gateway_breaker_opens_total{upstream}               breaker transitions to open
 *   gateway_config_info{hash,version}                   gauge 1: the config in force (its content hash, this process's version)
 *   gateway_config_reload_failures_total                reloads refused (invalid file, failed reload)
 *
 * deploy/grafana/migration-dashboard.json queries exactly these names (a test checks each exists).
 */
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { OPERATION_IDS } from '../../catalogue/operations.js';
import type { GatewayConfig } from '../../config/schema.js';
import type { RequestRecord } from '../../gateway/request-record.js';
import type { BreakerState } from '../../traffic/breaker.js';
import type { ShadowRecord } from '../../traffic/shadow.js';
import type { RouteLookup } from '../rollout/route-in-force.js';
import type { JudgementSource } from '../judgement/source.js';
import { OPERATION_STATES } from '../judgement/types.js';

const BREAKER_STATES: readonly BreakerState[] = ['closed', 'open', 'half-open'];
const OUTCOMES = { equal: 'agreed', differ: 'differed', race: 'raced', unavailable: 'api2-unavailable', skipped: 'skipped' } as const;

export interface MigrationMetricSources {
  /** The config in force, its content hash and version (undefined while starting). */
  readonly active: () => { readonly config: GatewayConfig; readonly configHash: string; readonly version: number } | undefined;
  /** The breakers of the config in force, by upstream. */
  readonly breakers: () => Readonly<Record<string, { state(): BreakerState }>>;
  /** Each route in force now (a rollout's step, else the config's); undefined while starting. */
  readonly route: () => RouteLookup | undefined;
  /** The one judgement of each operation. */
  readonly judge: JudgementSource;
}

export interface MigrationMetrics {
  record(record: RequestRecord): void;
  shadow(record: ShadowRecord): void;
  breaker(upstream: string, to: BreakerState): void;
  reloadFailed(): void;
}

export function migrationMetrics(registry: Registry, sources: MigrationMetricSources): MigrationMetrics {
  const registers = [registry];
  const fallbacks = new Counter({ name: 'gateway_fallbacks_total', help: 'Requests whose api2 call failed and that legacy answered, by operation.', labelNames: ['operation'] as const, registers });
  const shadow = new Counter({
    name: 'gateway_shadow_comparisons_total',
    help: 'Shadow comparisons by operation and outcome (agreed, differed, raced: a write of its scope overlapped it, api2-unavailable: api2 answered 5xx, timed out or refused, skipped); compared = agreed + differed.',
    labelNames: ['operation', 'outcome'] as const,
    registers,
  });
  const canary = new Counter({ name: 'gateway_canary_requests_total', help: 'Requests of canary routes, by operation and the side that answered.', labelNames: ['operation', 'side'] as const, registers });
  const opens = new Counter({ name: 'gateway_breaker_opens_total', help: 'Circuit breaker transitions to open, by upstream.', labelNames: ['upstream'] as const, registers });
  const reloadFailures = new Counter({ name: 'gateway_config_reload_failures_total', help: 'Config reloads refused (invalid file or failed reload); the config in force stays.', registers });
  new Gauge({
    name: 'gateway_route_canary_percent',
    help: 'The share of clients (0-100) api2 answers on each route in force: 0 legacy or shadow, the canary percent (a rollout step), 100 api2.',
    labelNames: ['operation'] as const,
    registers,
    collect() {
      this.reset();
      const route = sources.route();
      if (!route) return;
      for (const operation of OPERATION_IDS) {
        const inForce = route(operation);
        this.labels(operation).set(inForce.mode === 'api2' ? 100 : inForce.mode === 'canary' ? inForce.canaryPercent : 0);
      }
    },
  });
  new Gauge({
    name: 'gateway_route_mode',
    help: "1 for each operation's route mode in force (legacy, api2, canary, shadow): a rollout's step, else the configured mode.",
    labelNames: ['operation', 'mode'] as const,
    registers,
    collect() {
      this.reset();
      const route = sources.route();
      if (route) for (const operation of OPERATION_IDS) this.labels(operation, route(operation).mode).set(1);
    },
  });
  new Gauge({
    name: 'gateway_operation_state',
    help: "1 for each operation's state (the one judgement the console, /admin/* and the report show: done, rolling-out, held, paused, rolled-back, ready, collecting, no-evidence, cannot-move), 0 for the others.",
    labelNames: ['operation', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      const judged = await sources.judge();
      for (const judgement of judged?.judgements ?? []) for (const state of OPERATION_STATES) this.labels(judgement.operation, state).set(state === judgement.state ? 1 : 0);
    },
  });
  new Gauge({
    name: 'gateway_breaker_state',
    help: "1 for the state each upstream's circuit breaker is in (closed, open, half-open).",
    labelNames: ['upstream', 'state'] as const,
    registers,
    collect() {
      this.reset();
      for (const [upstream, breaker] of Object.entries(sources.breakers())) {
        const now = breaker.state();
        for (const state of BREAKER_STATES) this.labels(upstream, state).set(state === now ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'gateway_config_info',
    help: 'The config in force: its content hash (equal on replicas running the same config) and this process version (1 at start, +1 per reload).',
    labelNames: ['hash', 'version'] as const,
    registers,
    collect() {
      this.reset();
      const active = sources.active();
      if (active) this.labels(active.configHash, String(active.version)).set(1);
    },
  });
  return {
    record(record) {
      const operation = record.operation;
      if (operation === null || operation === 'uncatalogued') return;
      if (record.fallback) fallbacks.labels(operation).inc();
      if (record.routeMode === 'canary' && record.mode !== undefined) canary.labels(operation, record.mode).inc();
    },
    shadow: (record) => shadow.labels(record.operation, OUTCOMES[record.outcome]).inc(),
    breaker(upstream, to) {
      if (to === 'open') opens.labels(upstream).inc();
    },
    reloadFailed: () => reloadFailures.inc(),
  };
}

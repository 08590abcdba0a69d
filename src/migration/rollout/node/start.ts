/**
 * Node-only: the rollout of a gateway process. The store by config (Redis with `cache.redis`, else
 * the state file with `rollout.stateFile`, else memory), the loop, the admin view and actions,
 * and the metrics:
 *
 *   GET  /admin/rollout                        the states, the steps, the last events (RolloutSnapshot)
 *   POST /admin/rollout/:operation/:action     pause | resume | promote | rollback; `by` and `reason` (query, JSON or form body) are kept on the event
 *
 *   gateway_rollout_api2_percent{operation}    gauge: the share of clients api2 answers (shadow, legacy: 0)
 *   gateway_rollout_step{operation}            gauge: the step's index in the plan (-1: legacy)
 *   gateway_rollout_events_total{operation,kind}   decisions made by this process (moves, failed gates, actions)
 */
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { isOperationId } from '../../../catalogue/operations.js';
import type { OperationId } from '../../../catalogue/operations.js';
import type { GatewayConfig } from '../../../config/schema.js';
import type { AdminAction, AdminView } from '../../../gateway/admin-port.js';
import { ROLLOUT_ACTIONS } from '../actions.js';
import type { RolloutAction } from '../actions.js';
import { RolloutRunner } from '../runner.js';
import type { EvidenceSource } from '../runner.js';
import type { RolloutEvent } from '../state.js';
import { createMemoryStore } from '../store.js';
import type { RolloutStore } from '../store.js';
import { createFileStore } from './file-store.js';
import { createRedisStore } from './redis-store.js';

export const hasRolloutPlans = (config: GatewayConfig): boolean => Object.values(config.routes).some((route) => route.rollout);

/** Redis when the counters are the fleet's (cache.redis in use), else the state file, else memory. */
async function storeFor(config: GatewayConfig, counters: EvidenceSource): Promise<RolloutStore> {
  if (config.cache.redis && counters.scope === 'fleet') return createRedisStore(config.cache.redis);
  if (config.rollout.stateFile) return createFileStore(config.rollout.stateFile);
  return createMemoryStore();
}

export async function startRollout(config: GatewayConfig, counters: EvidenceSource, onEvent: (event: RolloutEvent) => void, onPagesStale: (operation: OperationId) => void): Promise<RolloutRunner> {
  const runner = new RolloutRunner({ config, store: await storeFor(config, counters), counters, onEvent, onPagesStale });
  await runner.start();
  return runner;
}

/** The admin view and the action, on whatever runner is in force (none: no plan was ever configured). */
export function rolloutAdmin(runner: () => RolloutRunner | undefined): { view: AdminView; action: AdminAction } {
  return {
    view: { path: '/admin/rollout', render: () => runner()?.snapshot() ?? { operations: [], events: [] } },
    action: {
      path: '/admin/rollout/:operation/:action',
      async handle({ operation = '', action = '' }, input) {
        if (!(ROLLOUT_ACTIONS as readonly string[]).includes(action)) return { status: 404, body: { error: `unknown action ${action}; one of ${ROLLOUT_ACTIONS.join(', ')}` } };
        const current = runner();
        if (!current || !isOperationId(operation)) return { status: 404, body: { error: `${operation} has no rollout plan` } };
        const outcome = await current.act(operation, action as RolloutAction, { by: said(input['by'], 64), reason: said(input['reason'], 300) });
        return outcome.ok ? { status: 200, body: { state: outcome.state } } : { status: outcome.status, body: { error: outcome.error } };
      },
    },
  };
}

/** An operator's word as kept on the event: one line, control characters out, at most `max` characters. */
function said(value: string | undefined, max: number): string | undefined {
  const text = value?.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, max);
  return text ? text : undefined;
}

/** Registers the rollout metrics; returns what counts one event. */
export function rolloutMetrics(registry: Registry, runner: () => RolloutRunner | undefined): (event: RolloutEvent) => void {
  const registers = [registry];
  const gauge = (name: string, help: string, value: (view: ReturnType<RolloutRunner['snapshot']>['operations'][number]) => number): void => {
    new Gauge({
      name,
      help,
      labelNames: ['operation'] as const,
      registers,
      collect() {
        this.reset();
        for (const view of runner()?.snapshot().operations ?? []) this.labels(view.operation).set(value(view));
      },
    });
  };
  gauge('gateway_rollout_api2_percent', 'Share of clients api2 answers on each route with a rollout plan (shadow and legacy: 0).', (view) => (view.exposure.mode === 'api2' ? 100 : view.exposure.mode === 'canary' ? view.exposure.canaryPercent : 0));
  gauge('gateway_rollout_step', "Index of each rollout's step in its plan (-1: on legacy).", (view) => view.state?.step ?? -1);
  const events = new Counter({ name: 'gateway_rollout_events_total', help: 'Rollout decisions made by this process: moves, failed gates, operator actions, plan changes, freezes.', labelNames: ['operation', 'kind'] as const, registers });
  return (event) => events.labels(event.operation, event.kind).inc();
}

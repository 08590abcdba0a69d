/**
 * What /admin/rollout and /admin/traffic add from the one judgement: each operation's state,
 * its detail and next action, the mode in force (a rollout's step, not the configured mode), and
 * the rollout history with consecutive identical gate failures as one entry. Pure.
 */
import { OPERATION_IDS } from '../catalogue/operations.js';
import type { OperationId } from '../catalogue/operations.js';
import type { GatewayConfig } from '../config/schema.js';
import type { RouteLookup } from '../migration/rollout/route-in-force.js';
import type { RolloutSnapshot } from '../migration/rollout/runner.js';
import { collapseHistory } from '../migration/judgement/history.js';
import type { JudgedNow } from '../migration/judgement/source.js';
import type { Judgement } from '../migration/judgement/types.js';

/** The part of a judgement every admin view shows. */
export function stateOf(judgement: Judgement | undefined) {
  if (!judgement) return null;
  const { state, detail, next, step, hold, pausedBy, missing, cause, races, api2Failures } = judgement;
  return { state, detail, next, step, hold, pausedBy, missing, cause, races, api2Failures };
}

/** /admin/rollout: the runner's snapshot, each operation with its judgement (those without a plan too), and the history collapsed. */
export function rolloutAdminView(snapshot: RolloutSnapshot | undefined, judged: JudgedNow | undefined): object {
  const find = (id: string) => judged?.judgements.find((j) => j.operation === id);
  if (!snapshot) return { operations: [], events: [], history: [] };
  return {
    ...snapshot,
    operations: snapshot.operations.map((view) => ({ ...view, judgement: stateOf(find(view.operation)) })),
    // Every operation without a plan, with its one judgement (a legacy-only one: cannot-move, and why).
    withoutPlan: OPERATION_IDS.filter((id) => !snapshot.operations.some((view) => view.operation === id)).map((operation) => ({ operation, judgement: stateOf(find(operation)) })),
    history: collapseHistory(snapshot.events).map((entry) =>
      entry.kind === 'held'
        ? { kind: 'held', operation: entry.operation, at: entry.at, gates: entry.gates, since: entry.since, until: entry.until, evaluations: entry.evaluations, text: `held since ${entry.since} by ${entry.gates.join(', ') || 'a gate'} (${entry.evaluations} evaluation${entry.evaluations === 1 ? '' : 's'})` }
        : { ...entry.decision },
    ),
  };
}

/** /admin/traffic's routes: per catalogued operation, the mode in force (and the configured one) with its state. */
export function trafficRoutes(config: GatewayConfig, route: RouteLookup, judged: JudgedNow | undefined): Record<string, object> {
  return Object.fromEntries(
    OPERATION_IDS.map((id: OperationId) => {
      const inForce = route(id);
      const configured = config.routes[id];
      const judgement = judged?.judgements.find((j) => j.operation === id);
      return [
        id,
        {
          mode: inForce.mode,
          canaryPercent: inForce.mode === 'canary' ? inForce.canaryPercent : undefined,
          fallback: inForce.fallback,
          rollout: inForce.rollout,
          configuredMode: configured?.mode ?? 'legacy',
          ...stateOf(judgement),
        },
      ];
    }),
  );
}

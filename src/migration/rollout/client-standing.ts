/**
 * Where the rollout plans put one client (by its hash or its label, as plans name clients:
 * src/config/rollout.ts): the operations whose plan holds it back, and those whose plan names it
 * in a cohort step, with whether the rollout has reached that step now. Shown by the console's
 * client page (where the rollout is: the runner's states) and the report's client section (the
 * last rollout decision in the log).
 */
import type { RolloutPlan } from '../../config/rollout.js';
import type { Position } from './state.js';
import { exposesApi2, positionKey } from './steps.js';

export interface ClientStanding {
  /** Operations whose plan holds the client on legacy at every step. */
  readonly held: readonly string[];
  /**
   * Operations whose plan names it in a cohort step, with the step's number (from 1) and whether
   * the route is at that step or a later one that exposes api2 now (null: where it is, is not known).
   */
  readonly cohorts: ReadonlyArray<{ readonly operation: string; readonly step: number; readonly reached: boolean | null }>;
}

/** The plans by operation (a route without `rollout` has none), and where each rollout is now when known. */
export type PlansByOperation = Readonly<Record<string, { readonly rollout?: RolloutPlan | undefined; readonly at?: Position | undefined }>>;

/** The plans with where each rollout is now (`at`: undefined when not known). */
export function withPositions(routes: PlansByOperation, at: (operation: string) => Position | undefined): PlansByOperation {
  return Object.fromEntries(Object.entries(routes).map(([operation, route]) => [operation, { rollout: route.rollout, at: at(operation) }]));
}

export function clientStanding(routes: PlansByOperation, client: string, label: string | undefined): ClientStanding {
  const names = (list: readonly string[]) => list.includes(client) || (label !== undefined && list.includes(label));
  const held: string[] = [];
  const cohorts: Array<ClientStanding['cohorts'][number]> = [];
  for (const operation of Object.keys(routes).sort()) {
    const { rollout: plan, at } = routes[operation] ?? {};
    if (!plan) continue;
    if (names(plan.hold)) held.push(operation);
    const step = plan.steps.findIndex((s) => typeof s === 'object' && names(s.clients));
    if (step >= 0) cohorts.push({ operation, step: step + 1, reached: at === undefined ? null : reaches(plan, at, step) });
  }
  return { held, cohorts };
}

/**
 * A cohort step's clients stay on api2 at every later step (exposureFor in steps.ts) until a move
 * back to legacy or shadow; null when the position is not a step of this plan (another plan's).
 */
function reaches(plan: RolloutPlan, at: Position, step: number): boolean | null {
  if (!exposesApi2(at)) return false;
  const now = plan.steps.findIndex((s) => positionKey(s) === positionKey(at));
  return now === -1 ? null : now >= step;
}

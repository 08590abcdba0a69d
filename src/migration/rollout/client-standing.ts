/**
 * Where the rollout plans put one client (by its hash or its label, as plans name clients:
 * src/config/rollout.ts): the operations whose plan holds it back, and those whose plan names it
 * in a cohort step. Read from the config's plans; shown by the console's client page and the
 * report's client section.
 */
import type { RolloutPlan } from '../../config/rollout.js';

export interface ClientStanding {
  /** Operations whose plan holds the client on legacy at every step. */
  readonly held: readonly string[];
  /** Operations whose plan names it in a cohort step, with the step's number (from 1). */
  readonly cohorts: ReadonlyArray<{ readonly operation: string; readonly step: number }>;
}

/** The plans by operation (a route without `rollout` has none). */
export type PlansByOperation = Readonly<Record<string, { readonly rollout?: RolloutPlan | undefined }>>;

export function clientStanding(routes: PlansByOperation, client: string, label: string | undefined): ClientStanding {
  const names = (list: readonly string[]) => list.includes(client) || (label !== undefined && list.includes(label));
  const held: string[] = [];
  const cohorts: Array<{ operation: string; step: number }> = [];
  for (const operation of Object.keys(routes).sort()) {
    const plan = routes[operation]?.rollout;
    if (!plan) continue;
    if (names(plan.hold)) held.push(operation);
    const step = plan.steps.findIndex((s) => typeof s === 'object' && names(s.clients));
    if (step >= 0) cohorts.push({ operation, step: step + 1 });
  }
  return { held, cohorts };
}

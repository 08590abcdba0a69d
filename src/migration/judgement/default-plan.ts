/**
 * The plan an operation without one is judged by: its readiness is what its plan's default gates
 * would give (src/config/rollout.ts defaults), so the report, the console and the rollout
 * controller share one set of rules (src/migration/rollout/gates.ts).
 *
 * DECISION: a read's default plan is `["shadow", 1, 10, 50, 100]` with the default agreement
 * gate (a shadow step needs one); a write's is `[1, 10, 50, 100]` (writes are never shadowed).
 */
import { RolloutPlanSchema } from '../../config/rollout.js';
import type { RolloutPlan } from '../../config/rollout.js';

const READ_PLAN: RolloutPlan = RolloutPlanSchema.parse({ steps: ['shadow', 1, 10, 50, 100], gates: { shadowAgreement: {} } });
const WRITE_PLAN: RolloutPlan = RolloutPlanSchema.parse({ steps: [1, 10, 50, 100] });

export function defaultPlan(write: boolean): RolloutPlan {
  return write ? WRITE_PLAN : READ_PLAN;
}

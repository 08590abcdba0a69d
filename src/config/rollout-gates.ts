/**
 * The agreement gate of a rollout plan (`routes.<id>.rollout.gates.shadowAgreement`): the tolerated
 * disagreement rate of the shadow comparisons and the confidence it is judged with
 * (src/migration/rollout/sequential-bounds.ts, docs/rollout.md "Gates, evidence, decisions").
 *
 * DECISION (the keys before the anytime-valid bound): `min` (the least agreement) still works and
 * means `maxDisagreement: 1 − min`; `minComparisons` stays what it was, the least comparisons
 * before the gate can pass, now beside the bound (which alone needs 398 clean comparisons at the
 * defaults). `min` and `maxDisagreement` together are refused.
 */
import { z } from 'zod';

/** A confidence the gates decide with: 80 % to 99.99 %. */
export const CONFIDENCE = z.number().min(0.8).max(0.9999);

/** A tolerated rate: more than 0 (no evidence proves a rate under 0), at most 0.5. */
const TOLERANCE = z.number().gt(0, 'must be more than 0: no number of comparisons proves a disagreement rate under 0 (0.001 tolerates one in a thousand)').max(0.5);

export const ShadowAgreementGateSchema = z
  .object({
    /** The disagreement rate tolerated (0.01: one comparison in a hundred differs). */
    maxDisagreement: TOLERANCE.optional(),
    /** The confidence of the decision: pass only when the rate is below maxDisagreement with it, fail when above. */
    confidence: CONFIDENCE.default(0.95),
    /** The least comparisons before the gate can pass, whatever the bound says (absent: the bound alone). */
    minComparisons: z.number().int().min(1).max(10_000_000).optional(),
    /** The older key: the least agreement; means maxDisagreement = 1 − min. */
    min: z.number().min(0.5).lt(1, 'must be less than 1: no number of comparisons proves no disagreement at all; give maxDisagreement (0.001 tolerates one in a thousand)').optional(),
  })
  .strict()
  .superRefine((gate, ctx) => {
    if (gate.min !== undefined && gate.maxDisagreement !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['min'], message: `is the older name of maxDisagreement (1 − min): give maxDisagreement alone` });
    }
  })
  .transform((gate) => ({
    maxDisagreement: gate.maxDisagreement ?? (gate.min === undefined ? 0.01 : roundTolerance(1 - gate.min)),
    confidence: gate.confidence,
    ...(gate.minComparisons === undefined ? {} : { minComparisons: gate.minComparisons }),
  }));

export type ShadowAgreementGate = z.output<typeof ShadowAgreementGateSchema>;

/** 1 − 0.99 is 0.010000000000000009 in floating point: the tolerance the operator meant is 0.01. */
function roundTolerance(value: number): number {
  return Number(value.toPrecision(12));
}

/**
 * The two gates judged on proportions with anytime-valid bounds (sequential-bounds.ts), on the
 * running counts of a window, at any look (docs/rollout.md "Gates, evidence, decisions"):
 *
 *   shadowAgreement  the disagreement rate k/n of the comparisons against `maxDisagreement`:
 *                    pass when its upper bound is below it, fail when its lower bound is above it
 *   errorRate        api2's error rate minus legacy's against `maxExcess`: each rate bounded at half
 *                    the error (α/2, a union bound), so the excess lies in
 *                    [lower(api2) − upper(legacy), upper(api2) − lower(legacy)] with the confidence;
 *                    against a stored baseline (legacy answered too few) its rate is taken as known
 *
 * A floor (`needed`) only delays a pass; a fail needs the bound, and in the last period `failSamples`.
 */
import type { ShadowAgreementGate } from '../../config/rollout-gates.js';
import type { GateResult, JudgedGate } from './state.js';
import { cleanSamplesToPass, decideRate, rateBounds } from './sequential-bounds.js';
import type { RateBounds } from './sequential-bounds.js';

/** The least samples before a pass, and before a fail, in the window judged. */
export interface Floors {
  readonly pass: number;
  readonly fail: number;
}

type Outcome = GateResult['outcome'];

function outcomeOf(upper: number, lower: number, limit: number, n: number, floors: Floors): Outcome {
  const decision = decideRate({ lower, upper }, limit);
  if (decision === 'above' && n >= floors.fail) return 'fail';
  if (decision === 'below' && n >= floors.pass) return 'pass';
  return 'inconclusive';
}

export function judgeAgreement(gate: ShadowAgreementGate, compared: number, agreed: number, window: GateResult['window'], floors: Floors): JudgedGate {
  const n = compared;
  const k = Math.max(0, compared - agreed);
  const alpha = 1 - gate.confidence;
  const { lower, upper } = rateBounds(n, k, alpha);
  const clean = cleanSamplesToPass(n, k, gate.maxDisagreement, alpha);
  return {
    gate: 'shadowAgreement',
    window,
    outcome: outcomeOf(upper, lower, gate.maxDisagreement, n, floors),
    measured: n === 0 ? null : k / n,
    bound: gate.maxDisagreement,
    samples: n,
    method: 'anytime-bound',
    adverse: k,
    lower,
    upper,
    confidence: gate.confidence,
    needed: floors.pass,
    toPass: clean === null ? null : Math.max(clean, floors.pass - n),
    reference: null,
  };
}

export interface ErrorCounts {
  /** api2's answers and fallbacks, and of them its 5xx and fallbacks. */
  readonly api2: { readonly samples: number; readonly errors: number };
  /** legacy's own answers and 5xx, or null where its stored baseline rate stands in. */
  readonly legacy: { readonly samples: number; readonly errors: number } | null;
  readonly baselineRate: number;
}

export function judgeErrorRate(gate: { maxExcess: number; confidence: number }, counts: ErrorCounts, window: GateResult['window'], floors: Floors): JudgedGate {
  const alpha = 1 - gate.confidence;
  const { legacy } = counts;
  // Two bounds at once: each at half the error. A stored baseline is one number, taken as known.
  const share = legacy ? alpha / 2 : alpha;
  const api2 = rateBounds(counts.api2.samples, counts.api2.errors, share);
  const legacyRate = legacy ? (legacy.samples === 0 ? 0 : legacy.errors / legacy.samples) : counts.baselineRate;
  const reference: RateBounds = legacy ? rateBounds(legacy.samples, legacy.errors, share) : { lower: legacyRate, upper: legacyRate };
  const n = counts.api2.samples;
  const lower = api2.lower - reference.upper;
  const upper = api2.upper - reference.lower;
  const clean = cleanSamplesToPass(n, counts.api2.errors, reference.lower + gate.maxExcess, share);
  return {
    gate: 'errorRate',
    window,
    outcome: outcomeOf(upper, lower, gate.maxExcess, n, floors),
    measured: n === 0 ? null : counts.api2.errors / n - legacyRate,
    bound: gate.maxExcess,
    samples: n,
    method: 'anytime-bound',
    adverse: counts.api2.errors,
    lower,
    upper,
    confidence: gate.confidence,
    needed: floors.pass,
    toPass: clean === null ? null : Math.max(clean, floors.pass - n),
    reference: { samples: legacy?.samples ?? 0, adverse: legacy?.errors ?? 0, rate: legacyRate },
  };
}

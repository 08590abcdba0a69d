/**
 * The gates of a plan, judged on one window of live counts (src/migration/live-counters.ts):
 * pure functions of the counts, the plan and the step (docs/rollout.md "Gates, evidence, decisions").
 *
 *   shadowAgreement  disagreement rate below maxDisagreement with `confidence` (anytime-valid bound)
 *   errorRate        api2's (5xx + fallbacks) / (answers + fallbacks) minus legacy's 5xx rate below
 *                    maxExcess with `confidence` (anytime-valid bounds on both: proportion-gates.ts)
 *   latencyP95       api2's p95 ≤ legacy's p95 × maxRatio + graceMs, over at least minAnswers
 *   breaker          the api2 breaker did not open
 *
 * A fallback (api2 failed, legacy answered) counts as an api2 error: the client was rescued, the
 * gate was not. Legacy's rate and p95 are measured in the same window (the baseline of the same
 * traffic at the same time); where legacy answered too few (a 100 % step), the last baseline
 * measured with enough samples is used, and without one the rate is taken as 0 and the p95 gate is
 * inconclusive.
 */
import type { RolloutPlan } from '../../config/rollout.js';
import type { GateResult, JudgedGate, Position, RolloutState } from './state.js';
import { judgeAgreement, judgeErrorRate } from './proportion-gates.js';
import type { Floors } from './proportion-gates.js';

/** The part of the live counters' OperationCounts the gates read. */
export interface SideEvidence {
  readonly requests: number;
  readonly status5xx: number;
  readonly p95Ms: number | null;
}

export interface OperationEvidence {
  readonly legacy: SideEvidence;
  readonly api2: SideEvidence;
  readonly fallbacks: number;
  /**
   * raced: comparisons a write of their scope overlapped; unavailable: api2 answered 5xx, timed out
   * or refused. Both are left out of compared (absent: none counted).
   */
  readonly shadow: { readonly compared: number; readonly agreed: number; readonly raced?: number; readonly unavailable?: number };
}

export interface WindowEvidence {
  readonly counts: OperationEvidence;
  readonly api2BreakerOpens: number;
}

/** What a window holds, flattened for an event line. */
export function evidenceFields(prefix: string, window: WindowEvidence): Record<string, number | null> {
  const { counts } = window;
  return {
    [`${prefix}.api2Answers`]: counts.api2.requests,
    [`${prefix}.api2Errors`]: counts.api2.status5xx,
    [`${prefix}.fallbacks`]: counts.fallbacks,
    [`${prefix}.api2P95Ms`]: counts.api2.p95Ms,
    [`${prefix}.legacyAnswers`]: counts.legacy.requests,
    [`${prefix}.legacyErrors`]: counts.legacy.status5xx,
    [`${prefix}.legacyP95Ms`]: counts.legacy.p95Ms,
    [`${prefix}.compared`]: counts.shadow.compared,
    [`${prefix}.agreed`]: counts.shadow.agreed,
    [`${prefix}.raced`]: counts.shadow.raced ?? 0,
    [`${prefix}.api2Unavailable`]: counts.shadow.unavailable ?? 0,
    [`${prefix}.breakerOpens`]: window.api2BreakerOpens,
  };
}

/** api2's samples in a window: its answers and the fallbacks (its failed attempts). */
export function api2Samples(counts: OperationEvidence): number {
  return counts.api2.requests + counts.fallbacks;
}

/** Legacy's own answers (fallbacks are api2's failures answered by legacy, not legacy's traffic). */
function legacyOwn(counts: OperationEvidence): number {
  return Math.max(0, counts.legacy.requests - counts.fallbacks);
}

/** Legacy's error rate and p95 in a window with at least `minSamples` of its own answers, else null. */
export function measuredBaseline(counts: OperationEvidence, minSamples: number): RolloutState['baseline'] | null {
  const own = legacyOwn(counts);
  if (own < minSamples) return null;
  return { errorRate: counts.legacy.status5xx / own, p95Ms: counts.legacy.p95Ms };
}

/**
 * Every gate that applies at `at`, judged on `window`; `minSamples` is the window's floor (the
 * plan's minSamples over the step, failSamples over the last period). A shadow step: agreement and
 * breaker, and error rate on api2's calls of the comparisons once one found api2 unavailable. A
 * percentage step: error rate, p95 and breaker, and agreement when comparisons were made (of the
 * requests legacy answered).
 */
export function judgeGates(plan: RolloutPlan, at: Position, window: WindowEvidence, which: GateResult['window'], minSamples: number, baseline: RolloutState['baseline']): JudgedGate[] {
  const { gates } = plan;
  const { counts } = window;
  const step = which === 'step';
  const results: JudgedGate[] = [];
  const agreement = gates.shadowAgreement;
  if (agreement && (at === 'shadow' || counts.shadow.compared > 0)) {
    const floors = step ? { pass: agreement.minComparisons ?? 1, fail: 1 } : { pass: minSamples, fail: minSamples };
    results.push({ ...judgeAgreement(agreement, counts.shadow.compared, counts.shadow.agreed, which, floors), races: counts.shadow.raced ?? 0 });
  }
  const own = legacyOwn(counts);
  // api2's error rate against legacy's own answers (or the stored baseline where legacy answered too few).
  const errorGate = (api2: { samples: number; errors: number }): JudgedGate => {
    const legacy = own >= minSamples ? { samples: own, errors: Math.min(own, counts.legacy.status5xx) } : null;
    const floors = step ? { pass: minSamples, fail: 1 } : { pass: minSamples, fail: minSamples };
    return judgeErrorRate(gates.errorRate, { api2, legacy, baselineRate: baseline?.errorRate ?? 0 }, which, floors);
  };
  const unavailable = counts.shadow.unavailable ?? 0;
  // api2 down in a shadow step: its calls of the comparisons (compared, raced or failed) are judged.
  if (at === 'shadow' && unavailable > 0) results.push(errorGate({ samples: counts.shadow.compared + (counts.shadow.raced ?? 0) + unavailable, errors: unavailable }));
  if (at !== 'shadow' && at !== 'legacy') {
    results.push(errorGate({ samples: api2Samples(counts), errors: counts.api2.status5xx + counts.fallbacks }));
    const latency = gates.latencyP95;
    if (latency) {
      const legacyP95 = own >= minSamples ? counts.legacy.p95Ms : (baseline?.p95Ms ?? null);
      // minAnswers holds back a pass only: a slow api2 is sent back on the window's own floor.
      results.push(judgeLatency(latency, counts.api2.p95Ms, legacyP95, counts.api2.requests, which, { pass: step ? Math.max(minSamples, latency.minAnswers) : minSamples, fail: minSamples }));
    }
  }
  if (gates.breaker && at !== 'legacy') {
    const opens = window.api2BreakerOpens;
    results.push({ gate: 'breaker', window: which, measured: opens, bound: 0, samples: opens, outcome: opens > 0 ? 'fail' : 'pass', method: 'count', adverse: opens, lower: null, upper: null, confidence: null, needed: 0, toPass: opens > 0 ? null : 0, reference: null });
  }
  return results;
}

/** A point comparison of the bucketed p95s, once the window holds the floor's timed api2 answers. */
function judgeLatency(latency: NonNullable<RolloutPlan['gates']['latencyP95']>, p95: number | null, legacyP95: number | null, timed: number, which: GateResult['window'], floors: Floors): JudgedGate {
  const limit = legacyP95 === null ? null : legacyP95 * latency.maxRatio + latency.graceMs;
  const verdict = p95 === null || limit === null ? null : p95 <= limit ? 'pass' : 'fail';
  const outcome = verdict === null || timed < floors[verdict] ? 'inconclusive' : verdict;
  return { gate: 'latencyP95', window: which, measured: p95, bound: limit, samples: timed, outcome, method: 'point', adverse: null, lower: null, upper: null, confidence: null, needed: floors.pass, toPass: outcome === 'pass' ? 0 : verdict === 'fail' || limit === null ? null : Math.max(0, floors.pass - timed), reference: null };
}

/**
 * The gates of a plan, judged on one window of live counts (src/migration/live-counters.ts):
 * pure functions of the counts, the plan and the step.
 *
 *   shadowAgreement  agreed / compared ≥ min
 *   errorRate        api2's (5xx + fallbacks) / (answers + fallbacks) ≤ legacy's 5xx rate + maxExcess
 *   latencyP95       api2's p95 ≤ legacy's p95 × maxRatio + graceMs
 *   breaker          the api2 breaker did not open
 *
 * A fallback (api2 failed, legacy answered) counts as an api2 error: the client was rescued, the
 * gate was not. Legacy's rate and p95 are measured in the same window (the baseline of the same
 * traffic at the same time); where legacy answered too few (a 100 % step), the last baseline
 * measured with enough samples is used, and without one the rate is taken as 0 and the p95 gate is
 * inconclusive.
 */
import type { RolloutPlan } from '../../config/rollout.js';
import type { GateResult, Position, RolloutState } from './state.js';

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
  readonly shadow: { readonly compared: number; readonly agreed: number };
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
 * Every gate that applies at `at`, judged on `window` with `minSamples` needed to conclude.
 * A shadow step: agreement and breaker. A percentage step: error rate, p95 and breaker, and
 * agreement when comparisons were made (of the requests legacy answered); it never waits for them.
 */
export function judgeGates(plan: RolloutPlan, at: Position, window: WindowEvidence, which: GateResult['window'], minSamples: number, baseline: RolloutState['baseline']): GateResult[] {
  const { gates } = plan;
  const { counts } = window;
  const results: GateResult[] = [];
  const agreement = gates.shadowAgreement;
  if (agreement && (at === 'shadow' || counts.shadow.compared > 0)) {
    const needed = which === 'step' ? agreement.minComparisons : minSamples;
    const compared = counts.shadow.compared;
    const measured = compared === 0 ? null : counts.shadow.agreed / compared;
    results.push({ gate: 'shadowAgreement', window: which, measured, bound: agreement.min, samples: compared, outcome: compared < needed || measured === null ? 'inconclusive' : measured >= agreement.min ? 'pass' : 'fail' });
  }
  if (at !== 'shadow' && at !== 'legacy') {
    const samples = api2Samples(counts);
    const own = legacyOwn(counts);
    const legacyRate = own >= minSamples ? counts.legacy.status5xx / own : (baseline?.errorRate ?? 0);
    const rate = samples === 0 ? null : (counts.api2.status5xx + counts.fallbacks) / samples;
    const bound = legacyRate + gates.errorRate.maxExcess;
    results.push({ gate: 'errorRate', window: which, measured: rate, bound, samples, outcome: samples < minSamples || rate === null ? 'inconclusive' : rate <= bound ? 'pass' : 'fail' });
    const latency = gates.latencyP95;
    if (latency) {
      const legacyP95 = own >= minSamples ? counts.legacy.p95Ms : (baseline?.p95Ms ?? null);
      const p95 = counts.api2.p95Ms;
      const limit = legacyP95 === null ? null : legacyP95 * latency.maxRatio + latency.graceMs;
      const timed = counts.api2.requests;
      results.push({ gate: 'latencyP95', window: which, measured: p95, bound: limit, samples: timed, outcome: timed < minSamples || p95 === null || limit === null ? 'inconclusive' : p95 <= limit ? 'pass' : 'fail' });
    }
  }
  if (gates.breaker && at !== 'legacy') {
    const opens = window.api2BreakerOpens;
    results.push({ gate: 'breaker', window: which, measured: opens, bound: 0, samples: opens, outcome: opens > 0 ? 'fail' : 'pass' });
  }
  return results;
}

/** One gate's judgement in words: `shadowAgreement 0.950 ≥ 0.900 (step, 40 samples)`. */
export function describeGate(gate: GateResult): string {
  const value = (n: number | null): string => (n === null ? '-' : Number.isInteger(n) ? String(n) : n.toFixed(3));
  const op = gate.gate === 'shadowAgreement' ? (gate.outcome === 'fail' ? '<' : '≥') : gate.outcome === 'fail' ? '>' : '≤';
  return `${gate.gate} ${value(gate.measured)} ${op} ${value(gate.bound)} (${gate.window}, ${gate.samples} samples)`;
}

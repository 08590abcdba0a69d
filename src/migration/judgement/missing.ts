/**
 * What evidence a judgement still lacks: per gate short of samples, roughly how many more it
 * needs before it can decide: the gate's own `toPass` (the samples, all clean, that would pass it
 * under its bound), else its `needed` less what it has (the plan's `minSamples`, `minComparisons`).
 */
import type { RolloutPlan } from '../../config/rollout.js';
import type { GateResult } from '../rollout/state.js';

const WHAT: Readonly<Record<GateResult['gate'], string>> = { shadowAgreement: 'comparisons', errorRate: 'api2 answers', latencyP95: 'timed api2 answers', breaker: 'evaluations' };

/** Gate → samples still needed (at least 1), for the step-window gates that are inconclusive. */
export function missingSamples(gates: readonly GateResult[], plan: RolloutPlan): Record<string, number> {
  const missing: Record<string, number> = {};
  for (const gate of gates) {
    if (gate.window !== 'step' || gate.outcome !== 'inconclusive') continue;
    if (gate.toPass === null) continue;
    const needed = gate.needed ?? (gate.gate === 'shadowAgreement' ? (plan.gates.shadowAgreement?.minComparisons ?? plan.minSamples) : plan.minSamples);
    missing[gate.gate] = Math.max(1, gate.toPass ?? needed - gate.samples);
  }
  return missing;
}

/** `about 40 more comparisons, about 120 more api2 answers`. */
export function missingText(missing: Readonly<Record<string, number>>): string {
  const parts = Object.entries(missing).map(([gate, n]) => `about ${n} more ${WHAT[gate as GateResult['gate']] ?? 'samples'} (${gate})`);
  return parts.length > 0 ? parts.join(', ') : 'the step has not lasted its minimum time yet';
}

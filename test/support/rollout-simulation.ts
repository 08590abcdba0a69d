/**
 * Seeded simulations of a rollout step through the real controller (src/migration/rollout/
 * controller.ts, its gates and bounds): comparisons or answers arrive in batches of 20 to 50
 * between evaluations, each adverse with a fixed probability; every evaluation judges the step's
 * running counts and the last batch, as the runner does. A failed gate that starts the step again
 * (a first shadow step) resets the step's counts, as the runner's `since` does.
 */
import type { RolloutPlan } from '../../src/config/rollout.js';
import { mulberry32 } from '../../src/sandbox/dataset/dataset.js';
import { evaluate } from '../../src/migration/rollout/controller.js';
import type { OperationEvidence, WindowEvidence } from '../../src/migration/rollout/gates.js';
import type { JudgedGate, RolloutState } from '../../src/migration/rollout/state.js';
import { initialState } from '../../src/migration/rollout/steps.js';

export interface RunResult {
  /** promoted: the step moved on; failed: a gate failed (the first failure ends a run when asked); open: neither before the cap. */
  readonly end: 'promoted' | 'failed' | 'open';
  /** Samples (comparisons, or api2 answers) seen in the run, and in the step when it ended. */
  readonly samples: number;
  readonly stepSamples: number;
  readonly failures: number;
  /** The step's gate of interest at the last evaluation. */
  readonly last: JudgedGate | undefined;
}

export interface Scenario {
  readonly plan: RolloutPlan;
  /** Chance a sample is adverse: api2's (a disagreement, an api2 error). */
  readonly rate: number;
  /** Chance a legacy answer is a 5xx (percentage steps; legacy answers 9 for each api2 answer). */
  readonly legacyRate?: number;
  /** Samples seen at most in one run. */
  readonly cap: number;
  /** End the run at the first failed gate (else the step starts again, where the plan says so). */
  readonly stopAtFailure: boolean;
}

const T0 = 1_000_000;
const side = (requests = 0, status5xx = 0) => ({ requests, status5xx, p95Ms: requests > 0 ? 10 : null });

function window(shadow: { compared: number; agreed: number }, api2: number, api2Errors: number, legacy: number, legacyErrors: number): WindowEvidence {
  const counts: OperationEvidence = { legacy: side(legacy, legacyErrors), api2: side(api2, api2Errors), fallbacks: 0, shadow };
  return { counts, api2BreakerOpens: 0 };
}

/** One run of `scenario` from the plan's first step, with its own seed. */
export function simulateStep(scenario: Scenario, seed: number): RunResult {
  const { plan, rate, cap } = scenario;
  const legacyRate = scenario.legacyRate ?? 0;
  const random = mulberry32(seed);
  const shadow = plan.steps[0] === 'shadow';
  const gateName = shadow ? 'shadowAgreement' : 'errorRate';
  let state: RolloutState = { ...initialState('recipes.search', plan, T0, true), since: T0 };
  let now = T0;
  let samples = 0;
  let failures = 0;
  let step = { n: 0, k: 0, legacy: 0, legacyK: 0 };
  let last: JudgedGate | undefined;
  while (samples < cap) {
    const n = 20 + Math.floor(random() * 31);
    let k = 0;
    for (let i = 0; i < n; i++) if (random() < rate) k++;
    let legacyK = 0;
    const legacy = shadow ? 0 : 9 * n;
    for (let i = 0; i < legacy; i++) if (random() < legacyRate) legacyK++;
    samples += n;
    step = { n: step.n + n, k: step.k + k, legacy: step.legacy + legacy, legacyK: step.legacyK + legacyK };
    const evidence = shadow
      ? { step: window({ compared: step.n, agreed: step.n - step.k }, 0, 0, 0, 0), recent: window({ compared: n, agreed: n - k }, 0, 0, 0, 0) }
      : { step: window({ compared: 0, agreed: 0 }, step.n, step.k, step.legacy, step.legacyK), recent: window({ compared: 0, agreed: 0 }, n, k, legacy, legacyK) };
    now += 1_000;
    const decision = evaluate(state, plan, { ...evidence, readsDone: true }, now);
    last = decision.judged?.find((g) => g.gate === gateName && g.window === 'step');
    if (decision.state.step > state.step) return { end: 'promoted', samples, stepSamples: step.n, failures, last };
    if (decision.events.some((e) => e.kind === 'gate-failed')) {
      failures++;
      if (scenario.stopAtFailure || decision.state.status !== 'running') return { end: 'failed', samples, stepSamples: step.n, failures, last };
      step = { n: 0, k: 0, legacy: 0, legacyK: 0 };
    }
    state = decision.state;
  }
  return { end: 'open', samples, stepSamples: step.n, failures, last };
}

/** `runs` runs with seeds 1…runs: how many ended each way, and each run. */
export function simulateMany(scenario: Scenario, runs: number): { promoted: number; failed: number; open: number; results: RunResult[] } {
  const results = Array.from({ length: runs }, (_, i) => simulateStep(scenario, i + 1));
  const count = (end: RunResult['end']) => results.filter((r) => r.end === end).length;
  return { promoted: count('promoted'), failed: count('failed'), open: count('open'), results };
}

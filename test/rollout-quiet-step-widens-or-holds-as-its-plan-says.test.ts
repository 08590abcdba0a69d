/**
 * A quiet step decides something (docs/rollout.md "A quiet step"): a percentage step that has had
 * no api2 answer for the plan's `whenQuiet.afterMs` widens to the next step by default, or holds
 * with `action: "hold"`; never a shadow step, never before the step's time, never a step with
 * api2 evidence, and the last step stays. The controller is pure: the clock is the test's.
 */
import { describe, expect, it } from 'vitest';
import { RolloutPlanSchema } from '../src/config/rollout.js';
import type { RolloutPlanInput } from '../src/config/rollout.js';
import { evaluate } from '../src/migration/rollout/controller.js';
import type { Evidence } from '../src/migration/rollout/controller.js';
import type { RolloutState } from '../src/migration/rollout/state.js';
import { holdsNobody, initialState } from '../src/migration/rollout/steps.js';

const T0 = 1_000_000;
const MINUTE = 60_000;
const planOf = (extra: Partial<RolloutPlanInput> = {}) => RolloutPlanSchema.parse({ steps: ['shadow', 20, 50, 100], minStepMs: 1_000, minSamples: 5, gates: { shadowAgreement: { maxDisagreement: 0.02 } }, ...extra });
const at = (step: number, plan = planOf()): RolloutState => ({ ...initialState('grocery.update', plan, T0, true), step, at: plan.steps[step] ?? 'legacy' });
/** `legacy` requests answered by legacy, `api2` by api2, over the whole step and its last period. */
function evidence(legacy: number, api2 = 0): Evidence {
  const window = {
    counts: { legacy: { requests: legacy, status5xx: 0, p95Ms: null }, api2: { requests: api2, status5xx: 0, p95Ms: null }, fallbacks: 0, shadow: { compared: 0, agreed: 0 } },
    api2BreakerOpens: 0,
  };
  return { step: window, recent: window, readsDone: true };
}

describe('a quiet step', () => {
  it('widens to the next step once it has had no api2 answer for 30 minutes (the default), saying why with its figures', () => {
    const plan = planOf();
    expect(plan.whenQuiet).toEqual({ afterMs: 30 * MINUTE, action: 'widen' });
    expect(evaluate(at(1), plan, evidence(40), T0 + 29 * MINUTE).state).toMatchObject({ step: 1, at: 20 });
    const decision = evaluate(at(1), plan, evidence(40), T0 + 30 * MINUTE);
    expect(decision.state).toMatchObject({ step: 2, at: 50, status: 'running', since: T0 + 30 * MINUTE });
    expect(decision.events).toHaveLength(1);
    expect(decision.events[0]).toMatchObject({ kind: 'promote', from: 20, to: 50, by: 'controller' });
    expect(decision.events[0]?.reason).toBe('quiet: no api2 answer in 30 min at 20 % (40 requests, every one answered by legacy): widened to 50 % (plan whenQuiet)');
  });

  it('widens after the time the plan states, and one step at a time', () => {
    const plan = planOf({ whenQuiet: { afterMs: 30_000 } });
    const first = evaluate(at(1, plan), plan, evidence(3), T0 + 30_000);
    expect(first.state.at).toBe(50);
    expect(evaluate(first.state, plan, evidence(3), T0 + 40_000).state.at).toBe(50);
    expect(evaluate(first.state, plan, evidence(3), T0 + 60_000).state.at).toBe(100);
  });

  it('holds, and says so, when the plan says hold', () => {
    const plan = planOf({ whenQuiet: { afterMs: 30_000, action: 'hold' } });
    const decision = evaluate(at(1, plan), plan, evidence(40), T0 + 10 * MINUTE);
    expect(decision.state).toMatchObject({ step: 1, at: 20 });
    expect(decision.events).toEqual([]);
    expect(holdsNobody(20, evidence(40).step.counts, plan)).toMatch(/promote it by hand, or plan a larger percentage \(whenQuiet holds it\)$/);
    expect(holdsNobody(20, evidence(40).step.counts, planOf())).toMatch(/it widens to the next step once it has been quiet 30 min \(whenQuiet\)/);
  });

  it('never widens a shadow step, a step with api2 evidence, a step before its time, or the last step', () => {
    const plan = planOf({ whenQuiet: { afterMs: 0 }, minStepMs: 5 * MINUTE });
    expect(evaluate(at(0, plan), plan, evidence(40), T0 + 10 * MINUTE).state.at).toBe('shadow');
    expect(evaluate(at(1, plan), plan, evidence(40, 2), T0 + 10 * MINUTE).state.at).toBe(20);
    expect(evaluate(at(1, plan), plan, evidence(40), T0 + 4 * MINUTE).state.at).toBe(20);
    expect(evaluate(at(3, plan), plan, evidence(40), T0 + 10 * MINUTE).state.at).toBe(100);
  });
});

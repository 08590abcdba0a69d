/**
 * The rollout controller, a pure function of (state, plan, evidence, now): it promotes a step only
 * after its time and its samples with every gate passed, holds when the evidence is too thin,
 * and sends the route back the first evaluation a gate fails (by the plan's action), with the
 * gates and the counts that decided it in the event. Operator actions and a changed plan follow
 * their documented rules.
 */
import { describe, expect, it } from 'vitest';
import { RolloutPlanSchema } from '../src/config/rollout.js';
import type { RolloutPlan } from '../src/config/rollout.js';
import { applyAction } from '../src/migration/rollout/actions.js';
import { evaluate } from '../src/migration/rollout/controller.js';
import type { Evidence } from '../src/migration/rollout/controller.js';
import type { OperationEvidence, WindowEvidence } from '../src/migration/rollout/gates.js';
import type { RolloutState } from '../src/migration/rollout/state.js';
import { initialState, planKey, replan } from '../src/migration/rollout/steps.js';

const plan: RolloutPlan = RolloutPlanSchema.parse({
  steps: ['shadow', 10, 100],
  minStepMs: 1_000,
  minSamples: 50,
  failSamples: 5,
  gates: { shadowAgreement: { maxDisagreement: 0.05, minComparisons: 40 }, latencyP95: { maxRatio: 2, graceMs: 10, minAnswers: 20 } },
});

type Counts = { legacy?: Partial<OperationEvidence['legacy']>; api2?: Partial<OperationEvidence['api2']>; fallbacks?: number; compared?: number; agreed?: number; opens?: number };
function win(c: Counts = {}): WindowEvidence {
  return {
    counts: {
      legacy: { requests: 0, status5xx: 0, p95Ms: null, ...c.legacy },
      api2: { requests: 0, status5xx: 0, p95Ms: null, ...c.api2 },
      fallbacks: c.fallbacks ?? 0,
      shadow: { compared: c.compared ?? 0, agreed: c.agreed ?? 0 },
    },
    api2BreakerOpens: c.opens ?? 0,
  };
}
const evidence = (step: Counts, recent: Counts = {}): Evidence => ({ step: win(step), recent: win(recent), readsDone: true });
const T0 = 1_000_000;
const at = (step: number, since = T0): RolloutState => ({ ...initialState('recipes.search', plan, since, true), step, at: plan.steps[step] ?? 'legacy' });

describe('promotion', () => {
  it('moves shadow to 10 % once the step lasted and the disagreement rate is below the tolerance with 95 % confidence', () => {
    const decision = evaluate(at(0), plan, evidence({ compared: 150, agreed: 149 }), T0 + 1_000);
    expect(decision.state).toMatchObject({ step: 1, at: 10, status: 'running', since: T0 + 1_000 });
    expect(decision.events).toHaveLength(1);
    expect(decision.events[0]).toMatchObject({ kind: 'promote', from: 'shadow', to: 10, by: 'controller' });
    const gate = decision.events[0]?.gates?.find((g) => g.gate === 'shadowAgreement' && g.window === 'step');
    expect(gate).toMatchObject({ outcome: 'pass', samples: 150, adverse: 1, measured: 1 / 150, bound: 0.05, confidence: 0.95, method: 'anytime-bound', toPass: 0 });
    expect(gate?.upper).toBeLessThan(0.05);
    expect(decision.events[0]?.evidence).toMatchObject({ 'step.compared': 150, 'step.agreed': 149 });
  });

  it('holds without an event while the step is too young or the evidence too thin', () => {
    expect(evaluate(at(0), plan, evidence({ compared: 200, agreed: 200 }), T0 + 999)).toMatchObject({ state: at(0), events: [] });
    // 78 clean comparisons do not bound the rate under 5 % at 95 % (79 do); a point estimate would have promoted at 40.
    const thin = evaluate(at(0), plan, evidence({ compared: 78, agreed: 78 }), T0 + 5_000);
    expect(thin).toMatchObject({ state: at(0), events: [] });
    expect(thin.judged?.find((g) => g.gate === 'shadowAgreement' && g.window === 'step')).toMatchObject({ outcome: 'inconclusive', adverse: 0, toPass: 1 });
    expect(evaluate(at(0), plan, evidence({ compared: 79, agreed: 79 }), T0 + 5_000).state.at).toBe(10);
    const canary = evaluate(at(1), plan, evidence({ api2: { requests: 49, p95Ms: 5 }, legacy: { requests: 4000, p95Ms: 5 } }), T0 + 5_000);
    expect(canary.state.step).toBe(1);
    expect(canary.events).toEqual([]);
  });

  it('moves 10 % to 100 % when api2 errors and latency stay within legacy\'s bounds, and stays at the last step', () => {
    // 600 clean api2 answers bound api2's rate under legacy's lower bound + 1 % (each rate at 97.5 %).
    const good = evidence({ api2: { requests: 600, status5xx: 0, p95Ms: 20 }, legacy: { requests: 5000, status5xx: 10, p95Ms: 10 } });
    const promoted = evaluate(at(1), plan, good, T0 + 2_000);
    expect(promoted.state).toMatchObject({ step: 2, at: 100 });
    expect(promoted.state.baseline).toEqual({ errorRate: 10 / 5000, p95Ms: 10 });
    expect(promoted.events[0]?.gates?.find((g) => g.gate === 'errorRate' && g.window === 'step')).toMatchObject({ outcome: 'pass', samples: 600, adverse: 0, bound: 0.01, reference: { samples: 5000, adverse: 10, rate: 10 / 5000 } });
    // The p95 needs minAnswers timed answers before it can pass.
    const strict = { ...plan, gates: { ...plan.gates, latencyP95: { maxRatio: 2, graceMs: 10, minAnswers: 700 } } };
    const held = evaluate(at(1), strict, good, T0 + 2_000);
    expect(held.state.at).toBe(10);
    expect(held.judged?.find((g) => g.gate === 'latencyP95' && g.window === 'step')).toMatchObject({ outcome: 'inconclusive', needed: 700, toPass: 100 });
    // 60 clean answers are a point rate of 0, not yet a bound under it: the step holds.
    expect(evaluate(at(1), plan, evidence({ api2: { requests: 60, p95Ms: 20 }, legacy: { requests: 5000, status5xx: 10, p95Ms: 10 } }), T0 + 2_000).state.at).toBe(10);
    expect(evaluate({ ...promoted.state, since: T0 }, plan, good, T0 + 9_000).state.step).toBe(2);
  });
});

describe('failed gates', () => {
  it('sends the route back one step on the first period where agreement fails, naming the gate and the counts', () => {
    const decision = evaluate(at(1), plan, evidence({ api2: { requests: 10, p95Ms: 5 } }, { compared: 8, agreed: 2 }), T0 + 100);
    expect(decision.state).toMatchObject({ step: 0, at: 'shadow', status: 'running', since: T0 + 100 });
    expect(decision.events.map((e) => e.kind)).toEqual(['gate-failed', 'rollback']);
    expect(decision.events[0]?.reason).toMatch(/^shadowAgreement 6\/8 differ \(75 %\): 95 % lower bound [\d.]+ % > 5 % \(recent\) → back-one-step$/);
    expect(decision.events[0]?.evidence).toMatchObject({ 'recent.compared': 8, 'recent.agreed': 2 });
  });

  it('counts fallbacks as api2 errors against legacy\'s own rate', () => {
    const decision = evaluate(at(2), plan, evidence({}, { api2: { requests: 2, p95Ms: 5 }, fallbacks: 6, legacy: { requests: 6, status5xx: 0 } }), T0 + 100);
    expect(decision.state).toMatchObject({ step: 1, at: 10 });
    expect(decision.events[0]?.gates?.find((g) => g.gate === 'errorRate' && g.window === 'recent')).toMatchObject({ outcome: 'fail', measured: 6 / 8, samples: 8, adverse: 6 });
  });

  it('fails a slow api2 on p95 against legacy\'s baseline at 100 %', () => {
    const state = { ...at(2), baseline: { errorRate: 0, p95Ms: 10 } };
    const decision = evaluate(state, plan, evidence({}, { api2: { requests: 8, p95Ms: 500 } }), T0 + 100);
    expect(decision.events[0]?.gates?.find((g) => g.gate === 'latencyP95' && g.window === 'recent')).toMatchObject({ outcome: 'fail', measured: 500, bound: 30 });
    expect(decision.state.at).toBe(10);
  });

  it('fails on the step\'s running counts as soon as the bound is above the tolerance, without waiting for minSamples', () => {
    // 2 of 2 comparisons differ: a broken mapping, above 5 % with 95 % confidence, though the last period held too few to judge.
    const decision = evaluate(at(0), plan, evidence({ compared: 2, agreed: 0 }, { compared: 2, agreed: 0 }), T0 + 100);
    const failed = decision.events[0]?.gates?.find((g) => g.outcome === 'fail');
    expect(failed).toMatchObject({ gate: 'shadowAgreement', window: 'step', samples: 2, adverse: 2 });
    expect(failed?.lower).toBeGreaterThan(0.05);
    // One differing comparison is not yet that evidence.
    expect(evaluate(at(0), plan, evidence({ compared: 1, agreed: 0 }), T0 + 100).events).toEqual([]);
  });

  it('fails the step when the api2 breaker opened, whatever the samples', () => {
    expect(evaluate(at(1), plan, evidence({ opens: 1 }), T0 + 100).state.at).toBe('shadow');
  });

  it('does not judge a failure on fewer samples than failSamples', () => {
    // 7 disagreements of 7 put the rate above 5 % with 95 % confidence, but the last period needs 8 samples to fail.
    expect(evaluate(at(1), { ...plan, failSamples: 8 }, evidence({}, { compared: 7, agreed: 0 }), T0 + 100).events).toEqual([]);
    expect(evaluate(at(1), { ...plan, failSamples: 7 }, evidence({}, { compared: 7, agreed: 0 }), T0 + 100).events[0]?.kind).toBe('gate-failed');
  });

  it('starts a failing first shadow step again, pauses, or goes to legacy, as the plan says', () => {
    const failing = evidence({}, { compared: 10, agreed: 0 });
    expect(evaluate(at(0), plan, failing, T0 + 100).state).toMatchObject({ step: 0, at: 'shadow', status: 'running', since: T0 + 100 });
    expect(evaluate(at(1), { ...plan, onFailure: 'pause' }, failing, T0 + 100).state).toMatchObject({ at: 10, status: 'paused' });
    expect(evaluate(at(2), { ...plan, onFailure: 'legacy' }, evidence({}, { api2: { requests: 10, status5xx: 10 } }), T0 + 100).state).toMatchObject({ step: -1, at: 'legacy', status: 'rolled-back' });
  });

  it('moves nothing while paused or rolled back', () => {
    const paused = { ...at(1), status: 'paused' as const };
    expect(evaluate(paused, plan, evidence({}, { compared: 10, agreed: 0 }), T0 + 100)).toEqual({ state: paused, events: [] });
  });
});

describe('writes', () => {
  const write = RolloutPlanSchema.parse({ steps: [10, 100], minStepMs: 0, minSamples: 5 });
  it('waits on legacy until the reads of its resource finished, then starts at its first step', () => {
    const waiting = initialState('grocery.create', write, T0, false);
    expect(waiting).toMatchObject({ status: 'waiting', at: 'legacy' });
    expect(evaluate(waiting, write, { ...evidence({}), readsDone: false }, T0 + 10).state).toBe(waiting);
    expect(evaluate(waiting, write, evidence({}), T0 + 10)).toMatchObject({ state: { status: 'running', at: 10 }, events: [{ kind: 'start' }] });
  });
});

describe('operator actions and changed plans', () => {
  it('pauses, resumes, promotes and rolls back, refusing what does not apply', () => {
    const paused = applyAction(at(1), plan, 'pause', T0);
    expect(paused).toMatchObject({ ok: true, state: { status: 'paused', at: 10 }, event: { kind: 'pause', by: 'operator' } });
    if (!paused.ok) return;
    expect(applyAction(paused.state, plan, 'resume', T0 + 5)).toMatchObject({ ok: true, state: { status: 'running', at: 10, since: T0 + 5 } });
    expect(applyAction(at(1), plan, 'promote', T0)).toMatchObject({ ok: true, state: { at: 100 } });
    expect(applyAction(at(2), plan, 'promote', T0)).toEqual({ ok: false, error: "is at the plan's last step (100 %)" });
    const back = applyAction(at(2), plan, 'rollback', T0);
    expect(back).toMatchObject({ ok: true, state: { at: 'legacy', status: 'rolled-back' } });
    if (!back.ok) return;
    expect(applyAction(back.state, plan, 'resume', T0)).toMatchObject({ ok: true, state: { step: 0, at: 'shadow', status: 'running' } });
  });

  it('keeps the step and its evidence when only gates change, and never raises exposure when steps change', () => {
    const running = at(1);
    const stricter = RolloutPlanSchema.parse({ ...plan, minSamples: 500 });
    const kept = replan(running, stricter, T0 + 50);
    expect(kept.state).toMatchObject({ step: 1, at: 10, since: T0, plan: planKey(stricter) });
    const reshaped = RolloutPlanSchema.parse({ ...plan, steps: ['shadow', 5, 25, 100] });
    expect(replan(running, reshaped, T0 + 50)).toMatchObject({ state: { step: 1, at: 5, since: T0 + 50 }, event: { kind: 'plan-changed', from: 10, to: 5, by: 'config' } });
    const noShadow = RolloutPlanSchema.parse({ steps: [50, 100] });
    expect(replan(at(0), noShadow, T0).state).toMatchObject({ at: 'legacy', status: 'rolled-back' });
  });
});

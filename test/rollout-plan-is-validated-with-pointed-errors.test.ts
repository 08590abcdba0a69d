/**
 * A rollout plan is checked at load, and each mistake is named at its key: a write with a shadow
 * step or a shadow agreement gate, a tolerance no evidence can prove, the older agreement key beside
 * the one that replaced it, a plan on a legacy-only operation, a mode set beside a plan,
 * steps that do not grow, a shadow step without its gate, a write whose reads have not moved, a
 * state file shared by several workers.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';

const base = {
  upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' }, api2: { baseUrl: 'https://127.0.0.1:2' } },
};
const SHADOW_GATE = { shadowAgreement: { maxDisagreement: 0.01, confidence: 0.95 } };

function errorsOf(extra: Record<string, unknown>): string[] {
  const result = parseConfig({ ...base, ...extra });
  return result.ok ? [] : result.errors;
}

describe('rollout plans', () => {
  it('accepts a read plan from shadow to 100 % and applies its defaults', () => {
    const result = parseConfig({ ...base, routes: { 'recipes.search': { rollout: { steps: ['shadow', 1, 10, 50, 100], gates: SHADOW_GATE } } } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.routes['recipes.search']?.rollout).toMatchObject({ minStepMs: 600_000, onFailure: 'back-one-step', gates: { errorRate: { maxExcess: 0.01 }, breaker: true } });
    expect(result.config.rollout.evaluationMs).toBe(10_000);
  });

  it('reads the agreement gate as a tolerated disagreement rate and a confidence, and the older `min` as 1 − min', () => {
    const plan = (gates: Record<string, unknown>) => {
      const result = parseConfig({ ...base, routes: { 'recipes.search': { rollout: { steps: ['shadow', 100], gates } } } });
      if (!result.ok) throw new Error(result.errors.join('\n'));
      return result.config.routes['recipes.search']?.rollout?.gates;
    };
    expect(plan({ shadowAgreement: {} })).toMatchObject({ shadowAgreement: { maxDisagreement: 0.01, confidence: 0.95 }, errorRate: { maxExcess: 0.01, confidence: 0.95 } });
    expect(plan({ shadowAgreement: { min: 0.99, minComparisons: 100 } })?.shadowAgreement).toEqual({ maxDisagreement: 0.01, confidence: 0.95, minComparisons: 100 });
    expect(plan({ shadowAgreement: { min: 0.95, confidence: 0.99 } })?.shadowAgreement).toEqual({ maxDisagreement: 0.05, confidence: 0.99 });
    expect(plan({ shadowAgreement: SHADOW_GATE.shadowAgreement, latencyP95: {} })?.latencyP95).toEqual({ maxRatio: 1.5, graceMs: 20, minAnswers: 20 });
  });

  it('refuses a tolerance of 0, the older key beside its replacement, and a confidence out of range, naming what to give', () => {
    const gates = (g: Record<string, unknown>) => errorsOf({ routes: { 'recipes.search': { rollout: { steps: ['shadow', 100], gates: g } } } });
    const at = 'routes["recipes.search"].rollout.gates';
    expect(gates({ shadowAgreement: { min: 0.99, maxDisagreement: 0.02 } })).toEqual([`${at}.shadowAgreement.min: is the older name of maxDisagreement (1 − min): give maxDisagreement alone`]);
    expect(gates({ shadowAgreement: { min: 1 } })).toEqual([`${at}.shadowAgreement.min: must be less than 1: no number of comparisons proves no disagreement at all; give maxDisagreement (0.001 tolerates one in a thousand)`]);
    expect(gates({ shadowAgreement: { maxDisagreement: 0 } })).toEqual([`${at}.shadowAgreement.maxDisagreement: must be more than 0: no number of comparisons proves a disagreement rate under 0 (0.001 tolerates one in a thousand)`]);
    expect(gates({ shadowAgreement: {}, errorRate: { maxExcess: 0 } })).toEqual([`${at}.errorRate.maxExcess: must be more than 0: no number of answers proves api2 fails no more often than legacy (0.001 tolerates one more error in a thousand)`]);
    expect(gates({ shadowAgreement: { confidence: 0.5 } })[0]).toMatch(/^routes\["recipes\.search"\]\.rollout\.gates\.shadowAgreement\.confidence: /);
  });

  it('refuses a shadow step and an agreement gate on a write, naming the step', () => {
    const errors = errorsOf({
      routes: {
        'grocery.list': { mode: 'api2' },
        'grocery.create': { rollout: { steps: ['shadow', 10, 100], gates: SHADOW_GATE } },
      },
    });
    expect(errors).toContain('routes["grocery.create"].rollout.steps[0]: grocery.create is a write and writes are never shadowed: its plan starts at a percentage and gates on error rates');
    expect(errors.some((e) => e.startsWith('routes["grocery.create"].rollout.gates.shadowAgreement: grocery.create is a write'))).toBe(true);
  });

  it('refuses a plan on a legacy-only operation with the reason', () => {
    const errors = errorsOf({ routes: { 'favorites.create': { rollout: { steps: [10, 100] } } } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^routes\["favorites\.create"\]\.rollout: favorites\.create cannot be rolled out to api2: /);
  });

  it('refuses a mode of any value set beside a plan, and a canary percent, naming the plan', () => {
    const plan = 'routes["recipes.search"].rollout, steps [10,100]';
    expect(errorsOf({ routes: { 'recipes.search': { mode: 'canary', canaryPercent: 5, rollout: { steps: [10, 100] } } } })).toEqual([
      `routes["recipes.search"].mode: is decided by the rollout plan (${plan}): leave mode out, or remove the plan`,
      `routes["recipes.search"].canaryPercent: is decided by the rollout plan (${plan}): leave canaryPercent out, or remove the plan`,
    ]);
    expect(errorsOf({ routes: { 'recipes.search': { mode: 'legacy', rollout: { steps: [10, 100] } } } })).toEqual([
      `routes["recipes.search"].mode: is decided by the rollout plan (${plan}): leave mode out, or remove the plan`,
    ]);
    expect(errorsOf({ routes: { 'recipes.search': { canaryPercent: 0, rollout: { steps: [10, 100] } } } })).toEqual([
      `routes["recipes.search"].canaryPercent: is decided by the rollout plan (${plan}): leave canaryPercent out, or remove the plan`,
    ]);
  });

  it('refuses steps that do not grow, a shadow step after the first, and a shadow step without its gate', () => {
    expect(errorsOf({ routes: { 'recipes.search': { rollout: { steps: [10, 10, 100] } } } })).toEqual([
      'routes["recipes.search"].rollout.steps[1]: must be more than the step before it (10 %): each step exposes more clients',
    ]);
    expect(errorsOf({ routes: { 'recipes.search': { rollout: { steps: [10, 'shadow'], gates: SHADOW_GATE } } } })).toEqual([
      'routes["recipes.search"].rollout.steps[1]: a shadow step can only be the first (it exposes no client; the steps after it expose more)',
    ]);
    expect(errorsOf({ routes: { 'recipes.search': { rollout: { steps: ['shadow', 100] } } } })[0]).toMatch(/^routes\["recipes\.search"\]\.rollout\.gates\.shadowAgreement: is required by a shadow step/);
  });

  it('refuses a write plan while a read of its resource can still move and has no plan', () => {
    expect(errorsOf({ routes: { 'reviews.create': { rollout: { steps: [10, 100] } } } })).toEqual([
      'routes["reviews.create"].rollout: a write\'s rollout starts once the reads of reviews have finished theirs: give reviews.get, reviews.list a rollout plan or mode "api2"',
    ]);
    expect(errorsOf({ routes: { 'reviews.get': { mode: 'api2' }, 'reviews.list': { rollout: { steps: [50, 100] } }, 'reviews.create': { rollout: { steps: [10, 100] } } } })).toEqual([]);
  });

  it('needs api2 for a plan, and refuses a state file under several workers without Redis', () => {
    const noApi2 = parseConfig({ upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' } }, routes: { 'recipes.search': { rollout: { steps: [10, 100] } } } });
    expect(noApi2.ok ? [] : noApi2.errors).toEqual(['upstreams.api2: is required when a route calls api2 (recipes.search: rollout)']);
    expect(errorsOf({ workers: 2, rollout: { stateFile: '/tmp/rollout.json' } })[0]).toMatch(/^rollout\.stateFile: is one process's rollout state/);
  });

  it('reports a write waiting on its reads and a shared state file in the same round as an error elsewhere in the file', () => {
    const errors = errorsOf({ listen: { port: 'eighty' }, workers: 2, rollout: { stateFile: '/tmp/rollout.json' }, routes: { 'reviews.create': { rollout: { steps: [10, 100] } } } });
    expect(errors.some((e) => e.startsWith('listen.port: '))).toBe(true);
    expect(errors).toContain('routes["reviews.create"].rollout: a write\'s rollout starts once the reads of reviews have finished theirs: give reviews.get, reviews.list a rollout plan or mode "api2"');
    expect(errors.some((e) => e.startsWith('rollout.stateFile: is one process\'s rollout state'))).toBe(true);
  });
});

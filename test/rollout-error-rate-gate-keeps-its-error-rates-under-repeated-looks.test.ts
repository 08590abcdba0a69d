/**
 * The error-rate gate compares api2's rate with legacy's as two proportions, with bounds that hold
 * at every evaluation: seeded simulations of a 10 % step through the real controller (test/support/
 * rollout-simulation.ts), 20 to 50 api2 answers and nine times as many legacy answers between two
 * looks, `maxExcess` 1 % at 95 %. An api2 that fails as often as legacy (0.5 %) is failed in at most
 * 5 % of runs; one that fails 2 × maxExcess more often (2.5 %) is promoted in at most 5 %; one that
 * never fails is promoted at the first look after the answers docs/rollout.md states. A point
 * comparison of the two rates fails all three.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RolloutPlanSchema } from '../src/config/rollout.js';
import { simulateMany } from './support/rollout-simulation.js';

const plan = RolloutPlanSchema.parse({ steps: [10, 100], minStepMs: 0, minSamples: 50, gates: { errorRate: { maxExcess: 0.01, confidence: 0.95 } } });
const docs = readFileSync(new URL('../docs/rollout.md', import.meta.url), 'utf8');

describe('the error-rate gate under repeated looks (1 % more than legacy tolerated, 95 %)', () => {
  it('promotes an api2 that never fails at the first look after the answers the docs state, and not before', () => {
    const stated = Number(/With no error on either\s+side, (\d+) api2 answers pass it/.exec(docs)?.[1]);
    expect(stated).toBeGreaterThan(0);
    const { promoted, results } = simulateMany({ plan, rate: 0, legacyRate: 0, cap: 5_000, stopAtFailure: true }, 300);
    expect(promoted).toBe(300);
    for (const run of results) {
      expect(run.stepSamples).toBeGreaterThanOrEqual(stated);
      expect(run.stepSamples - stated).toBeLessThan(50);
    }
  });

  it('fails an api2 that fails as often as legacy (0.5 %) in at most 5 % of runs, and promotes nearly all of them', () => {
    const { promoted, failed } = simulateMany({ plan, rate: 0.005, legacyRate: 0.005, cap: 3_000, stopAtFailure: true }, 1_000);
    expect(failed / 1_000).toBeLessThanOrEqual(0.05);
    expect(promoted / 1_000).toBeGreaterThanOrEqual(0.9);
  });

  it('promotes an api2 that fails 2 % more often than legacy in at most 5 % of runs', () => {
    const { promoted } = simulateMany({ plan, rate: 0.025, legacyRate: 0.005, cap: 3_000, stopAtFailure: true }, 1_000);
    expect(promoted / 1_000).toBeLessThanOrEqual(0.05);
  });
});

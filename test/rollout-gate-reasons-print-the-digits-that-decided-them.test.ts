/**
 * A gate's reason (events, console, report: src/migration/rollout/gate-text.ts) prints its numbers
 * with as many digits as it takes to show why it passed or failed: never `shadowAgreement 0.990 <
 * 0.990`. Checked on the numbers of the field report, on old gates (log lines before the bounds)
 * and on random values a hair from their bound.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeGate } from '../src/migration/rollout/gate-text.js';
import type { GateResult, JudgedGate } from '../src/migration/rollout/state.js';

const bounded = (outcome: GateResult['outcome'], lower: number, upper: number, bound: number): JudgedGate => ({
  gate: 'shadowAgreement', window: 'step', outcome, measured: 0.005, bound, samples: 400, method: 'anytime-bound', adverse: 2, lower, upper, confidence: 0.95, needed: 1, toPass: outcome === 'pass' ? 0 : 10, reference: null,
});

/** The two numbers around the comparison sign of a reason, as printed. */
function printedPair(text: string): [number, number, string] {
  const match = /(-?[\d.]+(?:e-?\d+)?)( %)? ([<>≤≥]) (-?[\d.]+(?:e-?\d+)?)/.exec(text);
  if (!match) throw new Error(`no comparison in ${text}`);
  return [Number(match[1]), Number(match[4]), match[3] as string];
}

const holds = (a: number, op: string, b: number): boolean => (op === '<' ? a < b : op === '>' ? a > b : op === '≤' ? a <= b : a >= b);

describe('gate reasons', () => {
  it('prints an old agreement gate that failed a hair under its minimum with the digits that show it', () => {
    const text = describeGate({ gate: 'shadowAgreement', window: 'step', outcome: 'fail', measured: 0.98999, bound: 0.99, samples: 10_000 });
    expect(text).toBe('shadowAgreement 0.98999 < 0.99 (step, 10000 samples)');
  });

  it('prints a bound a hair from the tolerance apart from it, pass or fail', () => {
    expect(describeGate(bounded('pass', 0, 0.0099998, 0.01))).toContain('upper bound 0.99998 % < 1 %');
    expect(describeGate(bounded('fail', 0.0100001, 0.5, 0.01))).toContain('lower bound 1.00001 % > 1 %');
  });

  it('prints a latency gate short of samples with the sign its numbers have, and what it still needs', () => {
    const slowButFew: JudgedGate = { gate: 'latencyP95', window: 'step', outcome: 'inconclusive', measured: 500, bound: 30, samples: 8, method: 'point', adverse: null, lower: null, upper: null, confidence: null, needed: 20, toPass: null, reference: null };
    expect(describeGate(slowButFew)).toBe('latencyP95 500 > 30 (step, 8 samples of 20 needed)');
  });

  it('never prints a comparison whose printed numbers contradict it', () => {
    const near = fc.tuple(fc.double({ min: 1e-4, max: 0.5, noNaN: true }), fc.integer({ min: 1, max: 1_000_000 }), fc.boolean());
    fc.assert(
      fc.property(near, ([bound, ulps, above]) => {
        const value = bound * (1 + (above ? 1 : -1) * ulps * 1e-13);
        if (value === bound) return;
        const old = describeGate({ gate: 'errorRate', window: 'recent', outcome: value > bound ? 'fail' : 'pass', measured: value, bound, samples: 50 });
        const fresh = describeGate(value > bound ? bounded('fail', value, 1, bound) : bounded('pass', 0, value, bound));
        for (const text of [old, fresh]) {
          const [a, b, op] = printedPair(text);
          expect(holds(a, op, b), text).toBe(true);
        }
      }),
      { seed: 37, numRuns: 500 },
    );
  });
});

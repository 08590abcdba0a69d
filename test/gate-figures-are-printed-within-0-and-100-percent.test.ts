/**
 * No negative bound and no rate above 100 % is printed (issue 46): an error-rate gate's interval of
 * api2's excess over legacy's rate reaches below 0 (api2 errs less than legacy) and an upper bound
 * may pass 1; the gate's words (the events, the console, the report) and its drawn bounds (an
 * operation's page) clamp them to [0, 100 %].
 */
import { describe, expect, it } from 'vitest';
import { boundsBar } from '../src/admin/gate-bars.js';
import { describeGate } from '../src/migration/rollout/gate-text.js';
import type { GateResult } from '../src/migration/rollout/state.js';

const excess: GateResult = { gate: 'errorRate', window: 'step', outcome: 'pass', measured: -0.031, bound: 0.05, samples: 400, method: 'anytime-bound', adverse: 2, lower: -0.0795, upper: 0.0412, confidence: 0.95, needed: 20, toPass: 0, reference: { samples: 380, adverse: 14, rate: 0.0368 } };
const wide: GateResult = { ...excess, outcome: 'inconclusive', measured: 0.4, lower: -0.3, upper: 1.2, samples: 3, adverse: 1, toPass: 40 };

const percents = (text: string): number[] => [...text.matchAll(/(-?\d+(?:\.\d+)?)\s?%/g)].map((m) => Number(m[1]));

describe('gate figures', () => {
  it('print no negative bound and no rate above 100 %', () => {
    for (const gate of [excess, wide]) {
      const text = describeGate(gate);
      expect(text).not.toMatch(/-\d/);
      for (const value of percents(text)) expect(value, text).toBeGreaterThanOrEqual(0);
      for (const value of percents(text)) expect(value, text).toBeLessThanOrEqual(100);
    }
    expect(describeGate(excess)).toContain('upper bound 4.12 % < 5 %');
  });

  it('draw the bounds between 0 and the tolerance, clamped to [0, 100 %]', () => {
    for (const gate of [excess, wide]) {
      const bar = String(boundsBar(gate));
      for (const name of ['lower', 'upper', 'bound', 'top']) {
        const value = Number(new RegExp(`data-${name}="([^"]+)"`).exec(bar)?.[1]);
        expect(value, name).toBeGreaterThanOrEqual(0);
        expect(value, name).toBeLessThanOrEqual(1);
      }
      expect(bar).not.toMatch(/-\d/);
      for (const value of percents(bar.replace(/<[^>]+>/g, ' '))) expect(value).toBeLessThanOrEqual(100);
    }
  });
});

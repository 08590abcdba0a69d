/**
 * A step bar always shows where its operation is (the console's overview, issue 46), even when the
 * position is not one of the plan's steps: a route set by hand at 50 % drawn on a default plan of
 * 5, 25 and 100, or a step of a plan since changed. Found by the demo's screen test: a write's row
 * without any step marked "here".
 */
import { describe, expect, it } from 'vitest';
import { stepBarHtml, wayOf } from '../src/admin/step-bar.js';

const stepsOf = (html: string): Array<[string, string]> => [...html.matchAll(/data-step="([^"]+)" data-where="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]);

describe('a step bar', () => {
  it('draws a position outside the plan in its place among the steps, marked here', () => {
    const bar = String(stepBarHtml(wayOf([5, 25, 100], 50, [], false)));
    expect(stepsOf(bar)).toEqual([['5', 'been'], ['25', 'been'], ['50', 'here'], ['100', 'ahead']]);
  });

  it('draws the plan as it is when the position is one of its steps, or legacy', () => {
    expect(stepsOf(String(stepBarHtml(wayOf(['shadow', 20, 50, 100], 20, []))))).toEqual([['shadow', 'been'], ['20', 'here'], ['50', 'ahead'], ['100', 'ahead']]);
    expect(stepsOf(String(stepBarHtml(wayOf([50, 100], 'legacy', []))))).toEqual([['legacy', 'here'], ['50', 'ahead'], ['100', 'ahead']]);
  });
});

/**
 * A client named in a plan's cohort step is on api2 only once the rollout has reached that step
 * (and until it moves back to legacy or shadow). Its section says which: "in a cohort" alone read
 * as "moved" while the route was still in shadow. The report reads where the rollout is from the
 * log's last rollout decision; the console from the runner (the Chromium test compares the two).
 */
import { describe, expect, it } from 'vitest';
import { RolloutPlanSchema } from '../src/config/rollout.js';
import type { RolloutPlan } from '../src/config/rollout.js';
import { clientStanding } from '../src/migration/rollout/client-standing.js';
import type { Position } from '../src/migration/rollout/state.js';
import { renderText } from '../src/report/render-text.js';
import { reportFromInputs } from '../src/report/run.js';
import { logLine, T0, writeLog } from './support/log-fixtures.js';

// A parsed plan's defaults (gates, times: the report judges on them), with steps of its own (cast: a cohort step of 0 % after 5 % is refused by the config).
const plan = { ...RolloutPlanSchema.parse({ steps: ['shadow', 5, 50, 100], gates: { shadowAgreement: {} } }), steps: ['shadow', 5, { clients: ['team-app'], percent: 0 }, 50, 100], hold: [] } as unknown as RolloutPlan;
const standingAt = (at: Position | undefined) => clientStanding({ 'recipes.search': { rollout: plan, at } }, 'hash-of-team', 'team-app').cohorts;

describe("a client's standing in a cohort step", () => {
  it('is reached at its step and every later step, not before it, nor after a move back to legacy', () => {
    expect(standingAt('shadow')).toEqual([{ operation: 'recipes.search', step: 3, reached: false }]);
    expect(standingAt(5)[0]?.reached).toBe(false);
    expect(standingAt({ clients: ['team-app'], percent: 0 })[0]?.reached).toBe(true);
    expect(standingAt(50)[0]?.reached).toBe(true);
    expect(standingAt(100)[0]?.reached).toBe(true);
    expect(standingAt('legacy')[0]?.reached).toBe(false);
  });

  it('is not known when the rollout has not said where it is, or is at a step of another plan', () => {
    expect(standingAt(undefined)[0]?.reached).toBeNull();
    expect(standingAt(25)[0]?.reached).toBeNull();
  });

  it("in the report, follows the log's last rollout decision", async () => {
    const decision = (time: number, kind: string, from: unknown, to: unknown) =>
      JSON.stringify({ level: 30, time, operation: 'recipes.search', kind, from, to, status: 'running', by: 'controller', reason: kind, msg: 'rollout' });
    const search = logLine({ time: T0 + 10, operation: 'recipes.search', mode: 'legacy', client: 'hash-of-team', clientLabel: 'team-app' });
    const plans = { 'recipes.search': { rollout: plan } };
    const section = async (lines: string[]) => (await reportFromInputs([await writeLog(lines)], { plans })).clientSections.find((c) => c.client === 'hash-of-team')!;

    const inShadow = await section([decision(T0, 'start', 'legacy', 'shadow'), search]);
    expect(inShadow.standing?.cohorts).toEqual([{ operation: 'recipes.search', step: 3, reached: false }]);
    const atFive = [decision(T0, 'start', 'legacy', 'shadow'), search, decision(T0 + 20, 'promote', 'shadow', 5)];
    expect((await section(atFive)).standing?.cohorts[0]?.reached).toBe(false);
    const promoted = [...atFive, decision(T0 + 30, 'promote', 5, { clients: ['team-app'], percent: 0 })];
    const reached = await section(promoted);
    expect(reached.standing?.cohorts[0]?.reached).toBe(true);
    expect(renderText((await reportFromInputs([await writeLog(promoted)], { plans })))).toContain('recipes.search (step 3, reached: api2 answers it)');
    expect((await section([search])).standing?.cohorts[0]?.reached).toBeNull();
  });
});

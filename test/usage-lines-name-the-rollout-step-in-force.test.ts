/**
 * A real gateway rolls recipes.search out (shadow, then 5 %): every usage line and shadow
 * comparison of the route names the step in force (`stepSince`: when the step began, the rollout
 * state's `since` that the rollout snapshot (/admin/rollout) shows and the runner scopes its evidence from). The report
 * read from that log counts the 5 % step's lines alone and gives the state the runner shows.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RolloutState } from '../src/migration/rollout/state.js';
import { reportFromInputs } from '../src/report/run.js';
import { closedAfterAllTests } from './support/cleanup.js';
import { PLAN, TOKEN, positionOf, snapshot, startRolloutRig, traffic, until } from './support/rollout.js';

const cleanup = closedAfterAllTests(60_000);

describe('usage lines of a rolled-out route', () => {
  it('name the step in force, and the report judges the 5 % step on its own lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'step-lines-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const logFile = join(dir, 'usage.log');
    // The plan ends at 5 %: the route stays there while its traffic goes on.
    const { gateway } = await startRolloutRig(cleanup, { routes: { 'recipes.search': { rollout: { ...PLAN, steps: ['shadow', 5] } } }, observability: { admin: { bearerToken: TOKEN }, log: { destination: logFile } } });
    const load = traffic([gateway]);
    let state: RolloutState | null = null;
    try {
      await until('5 %', () => positionOf(gateway) === 5);
      state = snapshot(gateway).operations[0]!.state;
      // Some of the 5 % step's own traffic.
      const seen = load.statuses.length;
      await until('more searches', () => load.statuses.length >= seen + 30);
    } finally {
      await load.stop();
    }
    expect(snapshot(gateway).operations[0]!.state).toMatchObject({ at: 5, status: 'running', since: state!.since }); // still that step
    await gateway.close();

    const lines = (await readFile(logFile, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const route = lines.filter((l) => l['operation'] === 'recipes.search' && (l['msg'] === 'request' || l['msg'] === 'shadow'));
    expect(route.length).toBeGreaterThan(30);
    expect(route.every((l) => typeof l['stepSince'] === 'number')).toBe(true);
    const ofStep = route.filter((l) => l['stepSince'] === state!.since);
    expect(ofStep.filter((l) => l['msg'] === 'request').every((l) => l['routeMode'] === 'canary')).toBe(true);
    const earlier = route.filter((l) => (l['stepSince'] as number) < state!.since);
    expect(earlier.length).toBeGreaterThan(0);
    expect(earlier.every((l) => l['routeMode'] === 'shadow')).toBe(true);

    const report = await reportFromInputs([logFile]);
    const judged = report.readiness.operations.find((op) => op.operation === 'recipes.search')!;
    expect(judged.judgement).toMatchObject({ state: 'rolling-out', step: 5 });
    const requests = ofStep.filter((l) => l['msg'] === 'request');
    expect(judged.evidence.legacy.requests + judged.evidence.api2.requests).toBe(requests.filter((l) => l['mode'] === 'legacy' || l['mode'] === 'api2').length);
    expect(judged.evidence.shadow.compared + judged.evidence.shadow.skipped).toBe(ofStep.filter((l) => l['msg'] === 'shadow').length);
  }, 90_000);
});

/**
 * The agreement gate end to end, on the sandbox with its api2 made to differ on purpose
 * (src/sandbox/api2-faults.ts): at a 1 % tolerance and 95 % confidence, a mapping whose answers
 * differ on 3 % of searches never leaves its shadow step, however long it is watched; the same
 * mapping agreeing on every answer is promoted once the bound allows it.
 */
import { describe, expect, it } from 'vitest';
import type { Position } from '../src/migration/rollout/state.js';
import { closedAfterEachTest } from './support/cleanup.js';
import { startApi2ModeRig } from './support/api2-mode.js';
import type { Api2ModeRig } from './support/api2-mode.js';
import { send } from './support/http.js';
import { waitFor } from './support/wait.js';

const cleanup = closedAfterEachTest();
const PLAN = { steps: ['shadow', 100] as const, minStepMs: 0, gates: { shadowAgreement: { maxDisagreement: 0.01, confidence: 0.95 } } };

async function rigWith(differing: number): Promise<Api2ModeRig> {
  const rig = await startApi2ModeRig({ cache: { enabled: false }, routes: { 'recipes.search': { rollout: { ...PLAN, steps: [...PLAN.steps] } } }, rollout: { evaluationMs: 100 } });
  cleanup.push(() => rig.close());
  if (differing > 0) rig.api2.faults.set({ kind: 'field', field: 'Title', fraction: differing, path: '/recipes' });
  return rig;
}

/** Searches over every page of the dataset, four at a time, until `enough` holds or `max` comparisons were made; every position seen. */
async function searchUntil(rig: Api2ModeRig, enough: () => boolean, max: number): Promise<Set<Position | undefined>> {
  const seen = new Set<Position | undefined>();
  let n = 0;
  const loop = async () => {
    while (!enough() && rig.gateway.shadows.length < max) {
      const page = (n++ % 300) + 1;
      const res = await send(rig.gateway.origin, { target: `/recipes?pg=${page}&rpp=5&api_key=sandbox-free-key`, headers: { accept: 'application/json' } });
      expect(res.status).toBe(200);
      seen.add(rig.gateway.running.rollout()?.operations[0]?.state?.at);
    }
  };
  await Promise.all([loop(), loop(), loop(), loop()]);
  return seen;
}

describe('the agreement gate on the sandbox', () => {
  it('keeps a mapping that differs on 3 % of answers in shadow, through 1,000 comparisons', async () => {
    const rig = await rigWith(0.03);
    const seen = await searchUntil(rig, () => false, 1_000);
    const compared = rig.gateway.shadows.filter((s) => s.outcome !== 'skipped');
    expect(compared.filter((s) => s.outcome === 'differ').length / compared.length).toBeGreaterThan(0.02);
    expect(seen).toEqual(new Set(['shadow']));
  }, 120_000);

  it('promotes the same mapping agreeing on every answer', async () => {
    const rig = await rigWith(0);
    const promoted = () => rig.gateway.running.rollout()?.operations[0]?.state?.at === 100;
    await searchUntil(rig, promoted, 3_000);
    await waitFor(promoted, 5_000, 'promoted to 100 %');
    expect(rig.gateway.shadows.filter((s) => s.outcome === 'differ')).toEqual([]);
  }, 120_000);
});

/**
 * Cohorts in a rollout plan, for every plan and client the generator makes: a held client is
 * answered by legacy at every step (canary and 100 % alike); a cohort step before any percentage
 * sends exactly its clients (and those of the cohort steps before it) to api2; a client moved to
 * api2 stays there at every later step, so only a rollback of its step sends it back.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RolloutPlanSchema } from '../src/config/rollout.js';
import type { RolloutPlan, RolloutStep } from '../src/config/rollout.js';
import { canarySide } from '../src/migration/rollout/route-in-force.js';
import { exposureFor, initialState } from '../src/migration/rollout/steps.js';
import type { ClientIdentity } from '../src/request/identity.js';

/** 24 clients: the first 12 with a label, the others known by their hash alone. */
const CLIENTS = Array.from({ length: 24 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0');
  return { apiKey: `key-${n}`, identity: { hash: `00000000000000${n}`, label: i < 12 ? `app-${n}` : undefined } satisfies ClientIdentity };
});
const nameOf = (client: (typeof CLIENTS)[number]) => client.identity.label ?? client.identity.hash;

/** The side each client gets at step `index` of `plan`, as the pipeline chooses it (src/pipeline/choose-side.ts). */
function sides(plan: RolloutPlan, index: number): Map<string, 'legacy' | 'api2'> {
  const state = { ...initialState('recipes.search', plan, 0, true), step: index, at: plan.steps[index] as RolloutStep };
  const exposure = exposureFor(plan, state);
  return new Map(
    CLIENTS.map((client) => {
      const side = exposure.mode === 'api2' ? 'api2' : exposure.mode === 'canary' ? canarySide({ canaryPercent: exposure.canaryPercent, cohort: exposure.cohort ?? null }, client.identity, client.apiKey, null) : 'legacy';
      return [nameOf(client), side] as const;
    }),
  );
}

const names = fc.subarray(CLIENTS.map(nameOf), { minLength: 1, maxLength: 6 });
const planArbitrary = fc
  .record({
    shadow: fc.boolean(),
    cohorts: fc.array(names, { minLength: 1, maxLength: 3 }),
    percents: fc.uniqueArray(fc.integer({ min: 1, max: 100 }), { minLength: 0, maxLength: 4 }),
    hold: fc.subarray(CLIENTS.map(nameOf), { maxLength: 5 }),
  })
  .map(({ shadow, cohorts, percents, hold }) => {
    const held = new Set(hold);
    const steps: unknown[] = [...(shadow ? ['shadow'] : []), ...cohorts.map((clients) => ({ clients: clients.filter((c) => !held.has(c)) })), ...[...percents].sort((a, b) => a - b)];
    return RolloutPlanSchema.safeParse({ steps: steps.filter((s) => typeof s !== 'object' || (s as { clients: string[] }).clients.length > 0), hold, gates: { shadowAgreement: {} } });
  })
  .filter((parsed) => parsed.success)
  .map((parsed) => parsed.data as RolloutPlan);

describe('cohorts in a plan', () => {
  it('answer a held client by legacy at every step, canary and 100 % alike', () => {
    fc.assert(
      fc.property(planArbitrary, (plan) => {
        plan.steps.forEach((_, index) => {
          const at = sides(plan, index);
          for (const name of plan.hold) expect(at.get(name), `${name} at step ${index} of ${JSON.stringify(plan)}`).toBe('legacy');
        });
      }),
      { seed: 40, numRuns: 300 },
    );
  });

  it('send exactly the named clients to api2 at a cohort step before any percentage', () => {
    fc.assert(
      fc.property(planArbitrary, (plan) => {
        const named = new Set<string>();
        for (const [index, step] of plan.steps.entries()) {
          if (typeof step === 'number') break;
          if (step === 'shadow') continue;
          for (const client of step.clients) named.add(client);
          const onApi2 = [...sides(plan, index)].filter(([, side]) => side === 'api2').map(([name]) => name);
          expect(new Set(onApi2)).toEqual(named);
        }
      }),
      { seed: 41, numRuns: 300 },
    );
  });

  it('keep a client moved to api2 there at every later step', () => {
    fc.assert(
      fc.property(planArbitrary, (plan) => {
        let before = new Set<string>();
        plan.steps.forEach((_, index) => {
          const now = new Set([...sides(plan, index)].filter(([, side]) => side === 'api2').map(([name]) => name));
          for (const name of before) expect(now.has(name), `${name} left api2 at step ${index} of ${JSON.stringify(plan)}`).toBe(true);
          before = now;
        });
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});

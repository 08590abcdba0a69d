/**
 * Which moves leave api2's pages behind: every move that takes clients off api2 (an operator's
 * rollback, a step down, a plan removed) starts a new page epoch, which the api2 side's page key
 * carries, and asks for the route's pages to be dropped; moves that expose more keep them.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfig } from '../src/config/schema.js';
import { RolloutRunner } from '../src/migration/rollout/runner.js';
import type { EvidenceSource } from '../src/migration/rollout/runner.js';
import { createMemoryStore } from '../src/migration/rollout/store.js';
import { routesInForce } from '../src/migration/rollout/route-in-force.js';

const NO_EVIDENCE: EvidenceSource = { scope: 'replica', bucketMs: 1_000, window: async () => ({ scope: 'replica', operations: new Map(), api2BreakerOpens: 0 }) };

function configWith(rollout: boolean): GatewayConfig {
  const parsed = parseConfig({
    upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' }, api2: { baseUrl: 'https://127.0.0.1:9' } },
    routes: rollout ? { 'recipes.search': { rollout: { steps: [10, 50, 100], minStepMs: 3_600_000 } } } : {},
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.config;
}

describe('a move off api2', () => {
  it('starts a new page epoch and drops the pages; a move that exposes more keeps both', async () => {
    const stale: string[] = [];
    const runner = new RolloutRunner({ config: configWith(true), store: createMemoryStore(), counters: NO_EVIDENCE, onPagesStale: (id) => stale.push(id) });
    await runner.start();
    const route = routesInForce(configWith(true), runner);
    const epoch = () => route('recipes.search').pageEpoch;
    const act = async (action: 'promote' | 'rollback' | 'resume' | 'pause') => expect((await runner.act('recipes.search', action)).ok).toBe(true);

    expect(epoch()).toBe(0);
    await act('promote'); // 10 → 50 %
    await act('promote'); // 50 → 100 %
    expect([epoch(), stale]).toEqual([0, []]);
    await act('rollback'); // 100 % → legacy
    expect([epoch(), stale]).toEqual([1, ['recipes.search']]);
    await act('resume'); // legacy → 10 %
    await act('promote');
    await act('pause');
    expect([epoch(), stale.length]).toEqual([1, 1]);

    await runner.reload(configWith(false)); // the plan removed at 50 %
    expect(stale.length).toBe(2);
    await runner.close();
  });

  it('keeps the epoch in the stored state, so a replica that reads it keys pages alike', async () => {
    const store = createMemoryStore();
    const runner = new RolloutRunner({ config: configWith(true), store, counters: NO_EVIDENCE });
    await runner.start();
    await runner.act('recipes.search', 'promote');
    await runner.act('recipes.search', 'rollback');
    const other = new RolloutRunner({ config: configWith(true), store, counters: NO_EVIDENCE });
    await other.start();
    expect(routesInForce(configWith(true), other)('recipes.search')).toMatchObject({ mode: 'legacy', pageEpoch: 1 });
    await runner.close();
  });
});

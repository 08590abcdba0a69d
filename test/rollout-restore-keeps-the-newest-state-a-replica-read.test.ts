/**
 * Which state a lost rollout gets back when replicas remember different ones: the newest version
 * of the rollout any of them read wins over an older version and over a rollout a replica started
 * afresh after the loss; a plan none of them read starts at its first step.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfig } from '../src/config/schema.js';
import { RolloutRunner } from '../src/migration/rollout/runner.js';
import type { EvidenceSource } from '../src/migration/rollout/runner.js';
import { createMemoryStore } from '../src/migration/rollout/store.js';
import type { RolloutStore } from '../src/migration/rollout/store.js';

const NO_EVIDENCE: EvidenceSource = { scope: 'replica', bucketMs: 1_000, window: async () => ({ scope: 'replica', operations: new Map(), api2BreakerOpens: 0 }) };

const parsed = parseConfig({
  upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' }, api2: { baseUrl: 'https://127.0.0.1:9' } },
  routes: { 'recipes.search': { rollout: { steps: [10, 50, 100], minStepMs: 3_600_000 } } },
});
if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
const config: GatewayConfig = parsed.config;

let clock = 1_000_000;
const replica = (store: RolloutStore) => new RolloutRunner({ config, store, counters: NO_EVIDENCE, now: () => clock++ });
const stateOf = (runner: RolloutRunner) => runner.snapshot().operations[0]?.state;

describe('a lost rollout state', () => {
  it('comes back as the newest version a replica read, over an older one and over a fresh rollout', async () => {
    const store = createMemoryStore();
    const [a, b] = [replica(store), replica(store)];
    await a.start();
    await b.tick(); // b reads 10 %, version 1
    await a.act('recipes.search', 'promote'); // 50 %
    await a.act('recipes.search', 'rollback'); // legacy, rolled back: a read version 3, b still version 1
    await store.remove('recipes.search'); // lost

    const fresh = replica(store); // started after the loss: it never read the plan's state
    await fresh.tick();
    expect(stateOf(fresh)).toMatchObject({ at: 10, status: 'running' });
    await b.tick(); // b puts back the version it read (older than a's), over the younger rollout
    expect(stateOf(b)).toMatchObject({ at: 10 });
    await a.tick(); // a puts back the newest
    for (const runner of [a, b, fresh]) await runner.tick();
    for (const runner of [a, b, fresh]) expect(stateOf(runner)).toMatchObject({ at: 'legacy', status: 'rolled-back' });
    expect(a.snapshot().events.filter((e) => e.kind === 'restored')).toHaveLength(1);
    expect(b.snapshot().events.filter((e) => e.kind === 'restored')).toHaveLength(1);
  });

  it('starts a plan no replica ever read at its first step', async () => {
    const runner = replica(createMemoryStore());
    await runner.start();
    expect(stateOf(runner)).toMatchObject({ at: 10, status: 'running' });
    expect(runner.snapshot().events.filter((e) => e.kind === 'restored')).toEqual([]);
  });
});

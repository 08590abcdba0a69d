/**
 * A config change (a fixed mapping setting, a shadow ignore) may make api2 answer otherwise: a
 * rollout's gates then judge only what was counted after the new config came into force, never
 * the disagreements the old config caused; an unchanged config (a no-op reload) keeps the evidence.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfig } from '../src/config/schema.js';
import { RolloutRunner } from '../src/migration/rollout/runner.js';
import type { EvidenceSource } from '../src/migration/rollout/runner.js';
import { createMemoryStore } from '../src/migration/rollout/store.js';

const BUCKET_MS = 1_000;

function config(ignore: string[]): GatewayConfig {
  const parsed = parseConfig({
    upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' }, api2: { baseUrl: 'https://127.0.0.1:9' } },
    routes: { 'recipes.search': { shadow: { ignore }, rollout: { steps: ['shadow', 100], minStepMs: 0, gates: { shadowAgreement: {} } } } },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.config;
}

describe('a rollout under a changed config', () => {
  it('judges its step on the evidence counted since the config came into force', async () => {
    let clock = 10_000;
    const asked: number[] = [];
    const counters: EvidenceSource = {
      scope: 'replica',
      bucketMs: BUCKET_MS,
      window: async (since) => {
        asked.push(since);
        return { scope: 'replica', operations: new Map(), api2BreakerOpens: 0 };
      },
    };
    const runner = new RolloutRunner({ config: config([]), store: createMemoryStore(), counters, now: () => clock });
    await runner.start();
    clock = 25_500;
    await runner.tick();
    expect(Math.min(...asked.splice(0))).toBe(10_000);

    await runner.reload(config([])); // the same config: the evidence stands
    expect(Math.min(...asked.splice(0))).toBe(10_000);

    clock = 40_200;
    await runner.reload(config(['Results[].ImageURL'])); // a fix: only what comes after it counts
    expect(Math.min(...asked.splice(0))).toBe(41_000);
    await runner.close();
  });
});

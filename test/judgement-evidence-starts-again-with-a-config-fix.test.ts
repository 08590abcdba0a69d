/**
 * A config fix starts the evidence again (item 2 of issue 37): the live judgement reads the live
 * counters since the config hash in force came into force, so comparisons made under the config
 * before a fix (a shadow `ignore` added) never count after it; the config a process started with
 * counts from the start. The report does the same by the lines' `config` hash
 * (test/report-gives-each-operation-one-state-by-the-rollout-gates.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfig } from '../src/config/schema.js';
import { createLiveCounters } from '../src/migration/live-counters.js';
import { judgementSource } from '../src/migration/judgement/source.js';
import type { ActiveConfig } from '../src/migration/judgement/source.js';

const configWith = (ignore: string[]): GatewayConfig => {
  const parsed = parseConfig({ listen: { host: '127.0.0.1', port: 0 }, upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' }, api2: { baseUrl: 'https://127.0.0.1:2' } }, routes: { 'recipes.search': { mode: 'shadow', shadow: { ignore } } } });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.config;
};

describe('the live judgement after a config fix', () => {
  it('judges the comparisons made under the config in force alone', async () => {
    let now = Date.parse('2026-01-05T10:00:00.000Z');
    const live = createLiveCounters({ bucketMs: 1_000, keepBuckets: 900, now: () => now });
    const compare = (outcome: 'equal' | 'differ', n: number) => {
      for (let i = 0; i < n; i++) live.recordShadow({ kind: 'shadow', time: new Date(now).toISOString(), requestId: undefined, operation: 'recipes.search', outcome });
    };
    let active: ActiveConfig = { config: configWith([]), configHash: 'before', loadedAt: new Date(now).toISOString(), version: 1 };
    const judge = judgementSource(live, () => active, () => undefined, () => now);
    const search = async () => (await judge())!.judgements.find((j) => j.operation === 'recipes.search')!;

    now += 500; // within the first bucket of the config the process started with: counted
    compare('differ', 30);
    compare('equal', 70);
    expect(await search()).toMatchObject({ state: 'held', hold: { gates: ['shadowAgreement'] } });

    now += 60_000;
    active = { config: configWith(['Results[].ImageURL']), configHash: 'after', loadedAt: new Date(now).toISOString(), version: 2 };
    now += 1_500;
    compare('equal', 400);
    const fixed = await search();
    expect(fixed.state).toBe('ready');
    expect((await judge())!.window.operations.get('recipes.search')?.shadow).toMatchObject({ compared: 400, agreed: 400 });
  });
});

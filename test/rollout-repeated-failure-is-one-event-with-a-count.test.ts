/**
 * A repeated identical failure is one event with a count (issue 45, src/migration/rollout/repeats.ts):
 * under a lasting fault a shadow step fails the same way at every evaluation; the runner keeps one
 * gate-failed event with `count` evaluations, `since` the first and `last` the latest, in its
 * snapshot (/admin/rollout, the console) and in its store, and tells the log each evaluation with
 * the count so far. Another failed gate, or a move in between, starts a new event. The clock is
 * the test's; the counters are a fake that answers the fault of the moment.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { RedisTierConfigSchema } from '../src/config/fleet.js';
import { createRedisStore } from '../src/migration/rollout/node/redis-store.js';
import type { RolloutStore } from '../src/migration/rollout/store.js';
import { startTestRedis } from './support/redis-server.js';
import { parseConfig } from '../src/config/schema.js';
import { collapseHistory } from '../src/migration/judgement/history.js';
import { failedGateNames } from '../src/migration/rollout/repeats.js';
import { RolloutRunner } from '../src/migration/rollout/runner.js';
import type { EvidenceSource } from '../src/migration/rollout/runner.js';
import type { OperationEvidence } from '../src/migration/rollout/gates.js';
import type { RolloutEvent } from '../src/migration/rollout/state.js';
import { createMemoryStore } from '../src/migration/rollout/store.js';
import { rolloutReports } from '../src/report/rollout-lines.js';

const EVALUATION_MS = 2_000;
type Fault = 'none' | 'differ' | 'down';

function config() {
  const parsed = parseConfig({
    upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' }, api2: { baseUrl: 'https://127.0.0.1:9' } },
    rollout: { evaluationMs: EVALUATION_MS },
    routes: { 'recipes.search': { rollout: { steps: ['shadow', 100], minStepMs: 0, gates: { shadowAgreement: {}, errorRate: {} } } } },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.config;
}

/** 5,000 requests in every window: all agreeing, half differing, or api2 answering 503 to half its calls. */
function counts(fault: Fault): OperationEvidence {
  const side = { requests: 5_000, status5xx: 0, p95Ms: 10 };
  if (fault === 'down') return { legacy: side, api2: { ...side, status5xx: 2_500 }, fallbacks: 0, shadow: { compared: 2_500, agreed: 2_500, unavailable: 2_500 } };
  return { legacy: side, api2: side, fallbacks: 0, shadow: { compared: 5_000, agreed: fault === 'differ' ? 2_500 : 5_000 } };
}

async function rollout(store: RolloutStore = createMemoryStore()) {
  let clock = 1_000_000;
  let fault: Fault = 'differ';
  const counters: EvidenceSource = { scope: 'replica', bucketMs: 1_000, window: async () => ({ scope: 'replica', operations: new Map([['recipes.search', counts(fault)]]), api2BreakerOpens: 0 }) };
  const logged: RolloutEvent[] = [];
  const runner = new RolloutRunner({ config: config(), store, counters, now: () => clock, onEvent: (e) => logged.push(e) });
  const evaluations = async (n: number, now: Fault) => {
    fault = now;
    for (let i = 0; i < n; i++) {
      clock += EVALUATION_MS;
      await runner.tick();
    }
  };
  const failures = () => runner.snapshot().events.filter((e) => e.kind === 'gate-failed');
  return { runner, store, logged, evaluations, failures, at: () => clock };
}

describe('a repeated identical failure', () => {
  it('is one event with the count of evaluations, the first and latest times and the latest figures', async () => {
    const { runner, store, logged, evaluations, failures, at } = await rollout();
    await runner.start();
    const first = at();
    await evaluations(36, 'differ');
    const [failed, ...more] = failures();
    expect(more).toEqual([]);
    expect(failed).toMatchObject({ kind: 'gate-failed', from: 'shadow', to: 'shadow', count: 37, since: new Date(first).toISOString(), last: new Date(at()).toISOString(), time: new Date(at()).toISOString(), stepSince: at() });
    // The store (what every replica and an emptied Redis's restore read) holds the same one event.
    expect((await store.events(200)).filter((e) => e.kind === 'gate-failed')).toEqual([failed]);
    // The log is told every evaluation, each with the count so far; the report reads them as the one event.
    expect(logged.filter((e) => e.kind === 'gate-failed').map((e) => e.count ?? 1)).toEqual(Array.from({ length: 37 }, (_, i) => i + 1));
    const [report] = rolloutReports(logged.map((e) => ({ ...e, gates: e.gates ?? [], evidence: e.evidence ?? {} })));
    expect(report?.lines.filter((l) => l.kind === 'gate-failed')).toEqual([failed]);
    // The views' history: one "held" entry of 37 evaluations since the first.
    const held = collapseHistory(runner.snapshot().events).filter((e) => e.kind === 'held');
    expect(held).toMatchObject([{ evaluations: 37, since: new Date(first).toISOString(), gates: ['shadowAgreement'] }]);
    await runner.close();
  });

  it('starts a new event when another gate fails, and after a move', async () => {
    const { runner, evaluations, failures } = await rollout();
    await runner.start();
    await evaluations(3, 'differ');
    await evaluations(5, 'down'); // api2 unavailable: the error-rate gate fails, not agreement
    expect(failures().map((e) => [e.count ?? 1, failedGateNames(e)])).toEqual([
      [4, ['shadowAgreement']],
      [5, ['errorRate']],
    ]);
    await evaluations(1, 'none'); // promoted to 100 %
    expect(runner.snapshot().operations[0]?.state?.at).toBe(100);
    await evaluations(1, 'down'); // back one step to shadow: a move
    await evaluations(3, 'down'); // the same failure at shadow again: a new event after the move
    const kinds = runner.snapshot().events.map((e) => `${e.kind} ${e.from}→${e.to} ${e.count ?? 1}`);
    expect(kinds.slice(-4)).toEqual(['promote shadow→100 1', 'gate-failed 100→shadow 1', 'rollback 100→shadow 1', 'gate-failed shadow→shadow 3']);
    // An operator's pause and resume in between: the same failure after them is a new event.
    expect((await runner.act('recipes.search', 'pause', { by: 'alice' })).ok).toBe(true);
    expect((await runner.act('recipes.search', 'resume', { by: 'alice' })).ok).toBe(true);
    await evaluations(2, 'down');
    const after = runner.snapshot().events.map((e) => `${e.kind} ${e.from}→${e.to} ${e.count ?? 1}`);
    expect(after.slice(-4)).toEqual(['gate-failed shadow→shadow 3', 'pause shadow→shadow 1', 'resume shadow→shadow 1', 'gate-failed shadow→shadow 2']);
    await runner.close();
  });

  it("is one event in a fleet's Redis, and stays one after Redis is emptied", async () => {
    const redis = await startTestRedis();
    afterAll(() => redis.close());
    const store = await createRedisStore(RedisTierConfigSchema.parse({ url: redis.url, keyPrefix: 'repeats:' }));
    const { runner, evaluations, failures } = await rollout(store);
    await runner.start();
    await evaluations(19, 'differ');
    const listed = await redis.client().lrange('repeats:v1:rollout:events', 0, -1);
    expect(listed.map((line) => JSON.parse(line) as RolloutEvent).map((e) => `${e.kind} ${e.count ?? 1}`)).toEqual(['gate-failed 20', 'start 1']);
    await redis.client().flushall(); // the state and the events are lost; the replica puts back what it last read
    await evaluations(3, 'differ');
    expect(failures().map((e) => e.count)).toEqual([23]);
    expect((await store.events(200)).map((e) => `${e.kind} ${e.count ?? 1}`)).toEqual(['start 1', 'restored 1', 'gate-failed 23']);
    await runner.close();
  });
});

/**
 * What a rollout leaves behind and the order it keeps: every decision is a `msg: "rollout"`
 * usage-log line carrying the gates and the counts that decided it, and a metric; a write's
 * rollout waits on legacy until the reads of its resource finished theirs, then starts by itself.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { basic, send } from './support/http.js';
import { EVALUATION_MS, TOKEN, positionOf, snapshot, startRolloutRig, traffic, until } from './support/rollout.js';
import { closedAfterEachTest } from './support/cleanup.js';

const cleanup = closedAfterEachTest();

const rigWith = async (extra: Parameters<typeof startRolloutRig>[1]) => (await startRolloutRig(cleanup, extra)).gateway;

describe('rollout decisions', () => {
  it('writes each move as a usage-log line with its gates and evidence, and counts it in the metrics', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rollout-log-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'usage.log');
    const gateway = await rigWith({ observability: { admin: { bearerToken: TOKEN }, log: { destination: file } } });
    const load = traffic([gateway]);
    cleanup.push(() => load.stop());
    await until('5 %', () => positionOf(gateway) === 5);
    await load.stop();
    const metrics = await send(gateway.origin, { target: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(metrics.text()).toMatch(/gateway_rollout_events_total\{operation="recipes\.search",kind="promote"\} 1/);
    expect(metrics.text()).toMatch(/gateway_rollout_api2_percent\{operation="recipes\.search"\} 5/);
    await gateway.close();
    const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    const promoted = lines.find((line) => line['msg'] === 'rollout' && line['kind'] === 'promote');
    expect(promoted).toMatchObject({ operation: 'recipes.search', from: 'shadow', to: 5, by: 'controller', status: 'running' });
    expect(promoted?.['gates']).toEqual(expect.arrayContaining([expect.objectContaining({ gate: 'shadowAgreement', window: 'step', outcome: 'pass' })]));
    expect((promoted?.['evidence'] as Record<string, number>)['step.compared']).toBeGreaterThanOrEqual(8);
  }, 60_000);
});

describe('a write\'s rollout', () => {
  it('waits on legacy until the reads of its resource reach their last step, then starts by itself', async () => {
    const slow = { minStepMs: 3_600_000, minSamples: 5, failSamples: 3 };
    const gateway = await rigWith({
      routes: {
        'reviews.get': { mode: 'api2' },
        'reviews.list': { rollout: { ...slow, steps: [50, 100] } },
        'reviews.create': { rollout: { ...slow, steps: [10, 100] } },
      },
    });
    const states = () => Object.fromEntries(snapshot(gateway).operations.map((o) => [o.operation, o.state?.status === 'waiting' ? 'waiting' : o.state?.at]));
    expect(states()).toEqual({ 'reviews.list': 50, 'reviews.create': 'waiting' });
    await new Promise((resolve) => setTimeout(resolve, EVALUATION_MS * 3));
    expect(states()['reviews.create']).toBe('waiting');
    const promote = await send(gateway.origin, { method: 'POST', target: '/admin/rollout/reviews.list/promote', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(promote.status).toBe(200);
    await until('the write started', () => states()['reviews.create'] === 10, 10_000);
    expect(snapshot(gateway).events.find((e) => e.operation === 'reviews.create' && e.kind === 'start')).toMatchObject({ from: 'legacy', to: 10, reason: 'the reads of its resource finished their rollout' });
  }, 30_000);
});


describe('a write on a rolled-out route', () => {
  it('goes to legacy while the api2 breaker is open, instead of the breaker\'s 503', async () => {
    const { gateway, front } = await startRolloutRig(cleanup, {
      routes: { 'grocery.list': { mode: 'api2' }, 'grocery.create': { rollout: { steps: [100], onFailure: 'pause' } } },
      rollout: { evaluationMs: 60_000 },
      traffic: { breakers: { api2: { failureThreshold: 2, openMs: 60_000 } } },
    });
    expect(snapshot(gateway).operations[0]?.state).toMatchObject({ operation: 'grocery.create', at: 100 });
    front.mode = 'status-5xx';
    const write = () =>
      send(gateway.origin, { method: 'POST', target: '/grocerylist?api_key=sandbox-free-key', headers: { accept: 'application/json', authorization: basic('alice', 'alice-pass'), 'content-type': 'application/json' }, body: '{"quantity":"1","name":"salt"}' });
    // Sent to api2 and failed there: answered as it failed (a write is never retried blindly).
    expect((await write()).status).toBeGreaterThanOrEqual(500);
    expect((await write()).status).toBeGreaterThanOrEqual(500);
    const rescued = await write();
    expect(rescued.status).toBe(200);
    expect(gateway.records.at(-1)).toMatchObject({ operation: 'grocery.create', mode: 'legacy', routeMode: 'api2' });
  });
});

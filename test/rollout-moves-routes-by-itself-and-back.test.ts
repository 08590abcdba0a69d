/**
 * Progressive rollout end to end, on one process: real legacy and api2 sandboxes, api2 behind a
 * switchable front (test/support/api2-front.ts), a steady stream of searches from the six
 * clients the sandbox knows, short steps. With api2 agreeing the route goes from shadow to 100 %
 * by itself, one step after each held gate; when api2 starts to differ, to fail or to slow down,
 * it goes back at the next evaluation, and no client is answered a 5xx meanwhile (legacy would
 * have answered 200). Operator actions and the state file are tested here too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import type { RolloutSnapshot } from '../src/migration/rollout/runner.js';
import type { RolloutEvent } from '../src/migration/rollout/state.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { startApi2Front } from './support/api2-front.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { send } from './support/http.js';
import { EVALUATION_MS, PLAN, TOKEN, positionOf, rolloutConfig, snapshot, startRolloutRig, traffic, until } from './support/rollout.js';
import { closedAfterEachTest } from './support/cleanup.js';

const cleanup = closedAfterEachTest();

const rig = (extra: Partial<GatewayConfigInput> = {}) => startRolloutRig(cleanup, extra);

const moves = (events: readonly RolloutEvent[]) => events.filter((e) => e.from !== e.to).map((e) => `${e.kind} ${e.from}→${e.to}`);

describe('a rollout on one process', () => {
  it('takes an agreeing api2 from shadow to 100 % by itself, each step after its gate held', async () => {
    const { gateway } = await rig();
    expect(positionOf(gateway)).toBe('shadow');
    const load = traffic([gateway]);
    cleanup.push(() => load.stop());
    await until('100 %', () => positionOf(gateway) === 100);
    // The searches in flight when the step moved were routed at 25 %: wait for one routed at 100 % (api2 answering) before stopping.
    await until('a search answered by api2 at 100 %', () => gateway.records.some((r) => r.mode === 'api2' && r.routeMode === 'api2'));
    await load.stop();
    const { events } = snapshot(gateway);
    expect(moves(events), JSON.stringify(events.filter((e) => e.kind !== 'promote'))).toEqual(['start legacy→shadow', 'promote shadow→5', 'promote 5→25', 'promote 25→100']);
    for (const event of events.filter((e) => e.kind === 'promote')) {
      const stepGates = event.gates?.filter((g) => g.window === 'step') ?? [];
      expect(stepGates.length, JSON.stringify(event)).toBeGreaterThan(0);
      expect(stepGates.every((g) => g.outcome === 'pass'), JSON.stringify(event)).toBe(true);
    }
    expect(events.find((e) => e.kind === 'promote' && e.from === 'shadow')?.gates?.find((g) => g.gate === 'shadowAgreement' && g.window === 'step')?.samples).toBeGreaterThanOrEqual(8);
    expect(load.statuses.filter((s) => s !== 200), JSON.stringify(gateway.records.filter((r) => r.status !== 200).slice(0, 3))).toEqual([]);
  }, 60_000);

  // A failing api2 also differs from legacy in the comparisons of the requests legacy answered: either gate may see it first.
  for (const [fault, gates] of [['differ', ['shadowAgreement']], ['status-5xx', ['errorRate', 'shadowAgreement']], ['slow', ['latencyP95']]] as const) {
    it(`sends the route back at the next evaluation when api2 starts to ${fault === 'differ' ? 'differ' : fault === 'slow' ? 'be slow' : 'fail'}, and no client gets a 5xx`, async () => {
      const { gateway, front } = await rig(fault === 'status-5xx' ? { traffic: { breakers: { api2: { failureThreshold: 1000 } } } } : {});
      const load = traffic([gateway]);
      cleanup.push(() => load.stop());
      await until('25 %', () => positionOf(gateway) === 25);
      front.mode = fault;
      const switched = Date.now();
      await until('back from 25 %', () => positionOf(gateway) !== 25);
      const tookMs = Date.now() - switched;
      await load.stop();
      const { events } = snapshot(gateway);
      const failed = events.find((e) => e.kind === 'gate-failed');
      expect(failed, JSON.stringify(events)).toBeDefined();
      expect(failed?.from).toBe(25);
      expect(failed?.gates?.some((g) => (gates as readonly string[]).includes(g.gate) && g.outcome === 'fail'), JSON.stringify(failed)).toBe(true);
      expect(events.find((e) => e.kind === 'rollback')).toMatchObject({ from: 25, to: 5 });
      // One evaluation period, plus the counters' bucket and the slow fault's own delay; generous for a shared machine.
      expect(tookMs).toBeLessThan(5_000);
      expect(load.statuses.filter((s) => s >= 500 || s === 0)).toEqual([]);
    }, 60_000);
  }

  it('compares api2 with legacy in the background at 100 %, and sends the route back when api2 starts to differ there', async () => {
    const { gateway, front } = await rig();
    const load = traffic([gateway]);
    cleanup.push(() => load.stop());
    await until('100 %', () => positionOf(gateway) === 100);
    front.mode = 'differ';
    await until('back from 100 %', () => positionOf(gateway) !== 100);
    await load.stop();
    const failed = snapshot(gateway).events.find((e) => e.kind === 'gate-failed');
    expect(failed).toMatchObject({ from: 100, to: 25 });
    expect(failed?.gates?.some((g) => g.gate === 'shadowAgreement' && g.outcome === 'fail'), JSON.stringify(failed)).toBe(true);
    expect(load.statuses.filter((s) => s !== 200)).toEqual([]);
  }, 60_000);
});

describe('operators and restarts', () => {
  const admin = (gateway: TestGateway, action: string, token = TOKEN) =>
    send(gateway.origin, { method: 'POST', target: `/admin/rollout/recipes.search/${action}`, headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('pauses, promotes, rolls back and resumes on a token-protected admin action, and shows the state', async () => {
    const { gateway } = await rig({ routes: { 'recipes.search': { rollout: { ...PLAN, steps: ['shadow', 5, 25, 100], minStepMs: 3_600_000 } } } });
    expect((await admin(gateway, 'pause', '')).status).toBe(401);
    expect((await admin(gateway, 'pause', 'wrong-token-wrong-token-wrong')).status).toBe(401);
    expect((await admin(gateway, 'promote')).status).toBe(200);
    expect(positionOf(gateway)).toBe(5);
    expect((await admin(gateway, 'pause')).json()).toMatchObject({ state: { status: 'paused', at: 5 } });
    expect((await admin(gateway, 'pause')).status).toBe(409);
    expect((await admin(gateway, 'rollback')).json()).toMatchObject({ state: { status: 'rolled-back', at: 'legacy' } });
    expect((await admin(gateway, 'resume')).json()).toMatchObject({ state: { status: 'running', at: 'shadow' } });
    expect((await admin(gateway, 'jump')).status).toBe(404);
    const view = await send(gateway.origin, { target: '/admin/rollout', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(view.status).toBe(200);
    const shown = view.json() as RolloutSnapshot;
    expect(shown.events.filter((e) => e.by === 'operator').map((e) => e.kind)).toEqual(['promote', 'pause', 'rollback', 'resume']);
    expect(shown.store).toBe('memory');
  });

  it('keeps its step across a restart in the state file, and a changed plan never raises the exposure', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rollout-state-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const stateFile = join(dir, 'rollout.json');
    const legacy = await startLegacySandbox();
    cleanup.push(() => legacy.close());
    const front = await startApi2Front();
    cleanup.push(() => front.close());
    const slowPlan = { ...PLAN, minStepMs: 3_600_000 };
    const config = rolloutConfig(front, legacy.origin, { rollout: { evaluationMs: EVALUATION_MS, stateFile }, routes: { 'recipes.search': { rollout: slowPlan } } });
    const first = await startTestGateway(legacy.origin, config);
    expect((await admin(first, 'promote')).status).toBe(200);
    expect((await admin(first, 'promote')).status).toBe(200);
    expect(positionOf(first)).toBe(25);
    await first.close();
    const second = await startTestGateway(legacy.origin, config);
    cleanup.push(() => second.close());
    expect(positionOf(second)).toBe(25);
    expect(snapshot(second).store).toBe('file');
    const reshaped = rolloutConfig(front, legacy.origin, { rollout: { evaluationMs: EVALUATION_MS, stateFile }, routes: { 'recipes.search': { rollout: { ...slowPlan, steps: ['shadow', 10, 50, 100] } } } });
    const parsed = parseConfig({ listen: { host: '127.0.0.1', port: 0 }, legacyHosts: ['api.bigoven.com'], ...reshaped });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    await second.running.reload(parsed.config);
    expect(positionOf(second)).toBe(10);
    expect(snapshot(second).events.at(-1)).toMatchObject({ kind: 'plan-changed', from: 25, to: 10, by: 'config' });
  });
});

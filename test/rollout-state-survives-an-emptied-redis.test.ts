/**
 * A rollout's state outlives the Redis it is kept in: two replicas over one real redis-server
 * remember the last state they read, and put it back when Redis comes back empty or the key is
 * evicted or deleted. A rolled-back route stays rolled back, a paused one paused, a running one
 * goes on at its step; each restore is a `restored` log line and a metric.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Position } from '../src/migration/rollout/state.js';
import { closedAfterEachTest } from './support/cleanup.js';
import { redisOverrides, waitReady } from './support/fleet.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { send } from './support/http.js';
import { EVALUATION_MS, TOKEN, positionOf, rolloutConfig, snapshot, startFleetUpstreams, traffic, until } from './support/rollout.js';

const cleanup = closedAfterEachTest();
const STATE_KEY = 'rg:v1:rollout:s:recipes.search';

const act = async (gateway: TestGateway, action: string): Promise<number> =>
  (await send(gateway.origin, { method: 'POST', target: `/admin/rollout/recipes.search/${action}`, headers: { authorization: `Bearer ${TOKEN}` } })).status;

const statusOf = (gateway: TestGateway) => snapshot(gateway).operations[0]?.state?.status;
const restores = (gateway: TestGateway) => snapshot(gateway).events.filter((e) => e.kind === 'restored').length;

/** Every position both replicas show over `ms` (sampled every 20 ms). */
async function positionsOver(gateways: readonly TestGateway[], ms: number): Promise<Set<Position | undefined>> {
  const seen = new Set<Position | undefined>();
  const end = Date.now() + ms;
  while (Date.now() < end) {
    for (const gateway of gateways) seen.add(positionOf(gateway));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return seen;
}

describe('a rollout over an emptied Redis', () => {
  it('puts back the state the replicas last read: rolled back stays rolled back, paused stays paused, running goes on at its step', async () => {
    const { redis, legacyOrigin, front } = await startFleetUpstreams(cleanup);
    const dir = await mkdtemp(join(tmpdir(), 'rollout-restore-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const replica = async (name: string) => {
      const config = rolloutConfig(front, legacyOrigin, {
        ...redisOverrides(redis, { required: false, keyPrefix: 'rg:' }),
        observability: { admin: { bearerToken: TOKEN }, log: { destination: join(dir, `${name}.log`) } },
      });
      const gateway = await startTestGateway(legacyOrigin, config);
      cleanup.push(() => gateway.close());
      return gateway;
    };
    const [a, b] = [await replica('a'), await replica('b')];
    await Promise.all([waitReady(a), waitReady(b)]);
    const both = [a, b];
    const load = traffic(both);
    cleanup.push(() => load.stop());
    await until('5 % on both', () => both.every((g) => positionOf(g) === 5));

    // Rolled back, then Redis restarts empty: both replicas stay on legacy, rolled back.
    expect(await act(a, 'rollback')).toBe(200);
    await until('rolled back on both', () => both.every((g) => statusOf(g) === 'rolled-back'));
    await redis.kill();
    await redis.restart();
    await until('restored after the restart', () => restores(a) >= 1 && restores(b) >= 1, 20_000);
    expect(await positionsOver(both, EVALUATION_MS * 8)).toEqual(new Set(['legacy']));
    expect(both.map(statusOf)).toEqual(['rolled-back', 'rolled-back']);

    // Its key deleted by hand (as an eviction would): put back again.
    const client = redis.client();
    expect(await client.del(STATE_KEY)).toBe(1);
    await until('restored after the delete', () => restores(a) >= 2, 10_000);
    expect(await positionsOver(both, EVALUATION_MS * 5)).toEqual(new Set(['legacy']));
    expect(await client.exists(STATE_KEY)).toBe(1);

    // Paused stays paused.
    expect(await act(a, 'resume')).toBe(200);
    await until('5 % again', () => both.every((g) => positionOf(g) === 5));
    expect(await act(b, 'pause')).toBe(200);
    await until('paused on both', () => both.every((g) => statusOf(g) === 'paused'));
    await redis.kill();
    await redis.restart();
    await until('restored after the second restart', () => restores(a) >= 3, 20_000);
    expect(await positionsOver(both, EVALUATION_MS * 5)).toEqual(new Set([5]));
    expect(both.map(statusOf)).toEqual(['paused', 'paused']);

    // Running goes on at its step: never back to shadow or legacy.
    expect(await act(a, 'resume')).toBe(200);
    await until('running on both', () => both.every((g) => statusOf(g) === 'running'));
    await client.del(STATE_KEY);
    const seen = await positionsOver(both, EVALUATION_MS * 8);
    expect([...seen].every((at) => typeof at === 'number' && at >= 5), JSON.stringify([...seen])).toBe(true);
    expect(restores(a)).toBeGreaterThanOrEqual(4);

    // A metric and a log line for each restore.
    const counted = async (gateway: TestGateway) => {
      const metrics = (await send(gateway.origin, { target: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).text();
      return Number(/gateway_rollout_events_total\{operation="recipes\.search",kind="restored"\} (\d+)/.exec(metrics)?.[1] ?? 0);
    };
    // One for each of the four losses at least; two for one loss when the replica that read an older
    // version put it back first and the one that read the newer put that back over it (one run in
    // six: 5). Every restore is both counted and logged.
    const restoresCounted = (await counted(a)) + (await counted(b));
    expect(restoresCounted).toBeGreaterThanOrEqual(4);
    await load.stop();
    expect(load.statuses.filter((s) => s >= 500 || s === 0)).toEqual([]);
    await a.close();
    await b.close();
    const lines = (await Promise.all(['a', 'b'].map((name) => readFile(join(dir, `${name}.log`), 'utf8'))))
      .flatMap((text) => text.split('\n').filter(Boolean))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['msg'] === 'rollout' && line['kind'] === 'restored')
      .sort((x, y) => Number(x['time']) - Number(y['time']));
    expect(lines).toHaveLength(restoresCounted);
    expect(lines[0]).toMatchObject({ operation: 'recipes.search', from: 'legacy', to: 'legacy', status: 'rolled-back', by: 'controller' });
  }, 120_000);
});

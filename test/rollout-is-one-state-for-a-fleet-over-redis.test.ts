/**
 * Two replicas over a real redis-server share one rollout: one of them at a time evaluates (the
 * lease), from the fleet's counters, and both serve the step it decided. Each move is decided
 * once for the fleet. api2 starting to fail sends the route back on both, with no client
 * answered a 5xx; a dead Redis freezes the step (nothing moves, clients still answered); a
 * replica that starts later picks the stored state up. Only the lease holder shows an evaluation
 * of its own.
 */
import { describe, expect, it } from 'vitest';
import { redisOverrides, waitReady } from './support/fleet.js';
import { startTestGateway } from './support/gateway.js';
import { send } from './support/http.js';
import { TOKEN, positionOf, rolloutConfig, snapshot, startFleetUpstreams, traffic, until } from './support/rollout.js';
import { closedAfterEachTest } from './support/cleanup.js';

const cleanup = closedAfterEachTest();

describe('a rollout over two replicas and one Redis', () => {
  it('moves once for the fleet, serves one step on both, goes back on failure and freezes while Redis is dead', async () => {
    const { redis, legacyOrigin, front } = await startFleetUpstreams(cleanup);
    const config = rolloutConfig(front, legacyOrigin, { ...redisOverrides(redis, { required: false }), traffic: { breakers: { api2: { failureThreshold: 1000 } } } });
    const a = await startTestGateway(legacyOrigin, config);
    cleanup.push(() => a.close());
    const b = await startTestGateway(legacyOrigin, config);
    cleanup.push(() => b.close());
    await Promise.all([waitReady(a), waitReady(b)]);
    const load = traffic([a, b]);
    cleanup.push(() => load.stop());

    await until('25 % on both', () => positionOf(a) === 25 && positionOf(b) === 25);
    // Each replica's `leader` is what its last tick saw: a tick late past the lease (3 periods, a loaded machine) may show two for a moment, so wait for one.
    await until('one lease holder', () => [a, b].filter((g) => snapshot(g).leader).length === 1);
    expect(snapshot(a).store).toBe('redis');
    // The lease holder alone shows an evaluation of its own; the other shows the holder's, marked so.
    await until('an evaluation shown on both', () => [a, b].every((g) => snapshot(g).operations[0]?.judged != null));
    const shown = [a, b].map((g) => ({ leader: snapshot(g).leader, by: snapshot(g).operations[0]?.judged?.by }));
    expect(shown.map(({ leader, by }) => `${leader}:${by}`).sort()).toEqual(['false:lease holder', 'true:this replica']);
    // The fleet's events (the lease holder writes the state, then the events): each promotion decided once.
    await until('the promotions shown', () => snapshot(a).events.filter((e) => e.kind === 'promote').length >= 2);
    const events = snapshot(a).events.filter((e) => e.kind === 'promote').map((e) => `${e.from}→${e.to}`);
    expect(events).toEqual(['shadow→5', '5→25']);

    front.mode = 'status-5xx';
    await until('back from 25 % on both', () => positionOf(a) !== 25 && positionOf(b) !== 25);
    front.mode = 'pass';
    // The lease holder writes the state, then the events: a replica may read them a period later.
    await until('the failed gate shown on both', () => [a, b].every((g) => snapshot(g).events.some((e) => e.kind === 'gate-failed')));
    const failed = snapshot(b).events.find((e) => e.kind === 'gate-failed');
    // api2's 5xx fail whichever gate sees enough first: the error rate, the agreement or (on a loaded machine, a breaker opened by them before either has its samples) the breaker.
    expect(failed?.gates?.some((g) => (g.gate === 'errorRate' || g.gate === 'shadowAgreement' || g.gate === 'breaker') && g.outcome === 'fail'), JSON.stringify(failed)).toBe(true);

    // A third replica started now follows the stored state at once. With api2 agreeing again the
    // route climbs back meanwhile, so it is held (an operator's pause) while the replica starts.
    const held = await send(a.origin, { method: 'POST', target: '/admin/rollout/recipes.search/pause', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(held.status).toBe(200);
    const pausedAt = (held.json() as { state: { at: unknown } }).state.at;
    const c = await startTestGateway(legacyOrigin, config);
    cleanup.push(() => c.close());
    expect(snapshot(c).operations[0]?.state).toMatchObject({ status: 'paused', at: pausedAt });
    expect((await send(a.origin, { method: 'POST', target: '/admin/rollout/recipes.search/resume', headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);

    // A replica keeps the last state it read: one that had not read the last move yet stays a step apart; neither moves.
    await redis.kill();
    front.mode = 'status-5xx';
    await until('frozen', () => snapshot(a).frozen !== null && snapshot(b).frozen !== null);
    const frozenAt = [positionOf(a), positionOf(b)];
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect([positionOf(a), positionOf(b)]).toEqual(frozenAt);
    await load.stop();
    expect(load.statuses.filter((s) => s >= 500 || s === 0)).toEqual([]);
  }, 90_000);
});

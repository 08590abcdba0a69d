/**
 * A percentage step that none of the clients seen in it falls in cannot gather api2 evidence and
 * would wait for ever: the gateway says so once (a `holds-nobody` event in the log and the
 * history), in `/admin/rollout` and in the console, and stops saying so once the step holds someone.
 */
import { describe, expect, it } from 'vitest';
import { closedAfterEachTest } from './support/cleanup.js';
import { send } from './support/http.js';
import { EVALUATION_MS, PLAN, TOKEN, positionOf, snapshot, startRolloutRig, traffic, until } from './support/rollout.js';

const cleanup = closedAfterEachTest();
const auth = { authorization: `Bearer ${TOKEN}` };

describe('a step that holds nobody', () => {
  it('is named in /admin/rollout, the console and one event, until the step holds a client', async () => {
    // The six sandbox clients' canary buckets are 242 and above (of 10,000): 1 % holds none of them.
    const { gateway } = await startRolloutRig(cleanup, { routes: { 'recipes.search': { rollout: { ...PLAN, steps: [1, 25, 100] } } } });
    const load = traffic([gateway]);
    cleanup.push(() => load.stop());
    const view = async () => (await send(gateway.origin, { target: '/admin/rollout', headers: auth })).json() as { operations: Array<{ holdsNobody: string | null }> };

    await until('said to hold nobody', () => snapshot(gateway).operations[0]?.holdsNobody != null);
    expect((await view()).operations[0]?.holdsNobody).toMatch(/1 % step holds no client seen in it/);
    const page = (await send(gateway.origin, { target: '/admin', headers: auth })).text();
    expect(page).toMatch(/data-field="holdsNobody">the 1 % step holds no client/);
    await new Promise((resolve) => setTimeout(resolve, EVALUATION_MS * 4));
    expect(snapshot(gateway).events.filter((e) => e.kind === 'holds-nobody')).toHaveLength(1);
    expect(positionOf(gateway)).toBe(1);

    expect((await send(gateway.origin, { method: 'POST', target: '/admin/rollout/recipes.search/promote', headers: auth })).status).toBe(200);
    await until('25 % holds clients', () => positionOf(gateway) !== 1 && snapshot(gateway).operations[0]?.judged !== null && snapshot(gateway).operations[0]?.holdsNobody === null);
    expect((await view()).operations[0]?.holdsNobody).toBeNull();
  }, 30_000);
});

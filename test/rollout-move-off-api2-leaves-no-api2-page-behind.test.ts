/**
 * A rollout that moves a route off api2 leaves none of api2's pages behind: a route at 100 %
 * stores api2's pages, api2 starts to differ (held there by an operator until its pages are served
 * from the cache), the route is rolled back, api2 is fixed and the
 * route promoted to 100 % again: no answer after the rollback carries a field api2 gave before it
 * (the cache on, as in production), and pages are served from the cache again afterwards. Half
 * the searches ask the same few pages (cached, served as HITs), half ask a page of results with
 * `Cache-Control: no-cache` (each a fill of its own, compared, so the gates keep seeing api2's
 * answers). A new page number each, as this test asked before, ran past the last page of results
 * within seconds on a fast machine: empty pages agree, and the gate could not see api2 differ.
 */
import { describe, expect, it } from 'vitest';
import { closedAfterEachTest } from './support/cleanup.js';
import { basic, send } from './support/http.js';
import { PLAN, TOKEN, positionOf, snapshot, startRolloutRig, until } from './support/rollout.js';

const cleanup = closedAfterEachTest();
const USERS = [undefined, 'alice', 'bob'];
const WORDS = ['soup', 'chicken', 'salad'];

interface Answer {
  readonly startedAt: number;
  readonly body: string;
  readonly cache: string | undefined;
}

describe('a move off api2', () => {
  it('serves no page api2 gave before a rollback, after the route is promoted again', async () => {
    const { front, gateway } = await startRolloutRig(cleanup, {
      cache: { enabled: true },
      routes: { 'recipes.search': { rollout: { ...PLAN, onFailure: 'legacy' } } },
    });
    const act = async (action: string) => (await send(gateway.origin, { method: 'POST', target: `/admin/rollout/recipes.search/${action}`, headers: { authorization: `Bearer ${TOKEN}` } })).status;
    const toFull = async () => {
      for (const _ of PLAN.steps.slice(1)) expect(await act('promote')).toBe(200);
      expect(positionOf(gateway)).toBe(100);
    };
    const answers: Answer[] = [];
    let running = true;
    let n = 0;
    const loop = async () => {
      while (running) {
        const i = n++;
        const user = USERS[i % USERS.length];
        const headers: Record<string, string> = { accept: 'application/json' };
        if (user) headers['authorization'] = basic(user, `${user}-pass`);
        // Every other request bypasses the cache (a page of results of its own): api2 answers it and it is compared, so the gates see the difference.
        const rpp = i % 2 === 0 ? 5 : 4;
        if (i % 2 === 1) headers['cache-control'] = 'no-cache';
        const startedAt = Date.now();
        const res = await send(gateway.origin, { target: `/recipes?title_kw=${WORDS[i % WORDS.length]}&rpp=${rpp}&pg=1&api_key=sandbox-free-key`, headers });
        answers.push({ startedAt, body: res.text(), cache: res.headers['x-cache'] as string | undefined });
      }
    };
    await toFull();
    // Held at 100 % (the gates not judged) while api2's differing pages are stored and served from the cache.
    expect(await act('pause')).toBe(200);
    front.mode = 'differ';
    const loops = [loop(), loop()];
    cleanup.push(async () => {
      running = false;
      await Promise.all(loops);
    });
    await until('api2 pages served from the cache', () => answers.some((a) => a.cache === 'HIT' && a.body.includes('(changed)')));
    expect(await act('resume')).toBe(200);
    await until('rolled back for the differing titles', () => snapshot(gateway).operations[0]?.state?.status === 'rolled-back', 20_000);
    const rolledBackAt = Date.now();
    front.mode = 'pass';

    expect(await act('resume')).toBe(200);
    await toFull();
    const promotedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    running = false;
    await Promise.all(loops);

    const after = answers.filter((a) => a.startedAt > rolledBackAt);
    expect(after.filter((a) => a.body.includes('(changed)')).length, 'answers after the rollback with a field api2 gave before it').toBe(0);
    expect(after.filter((a) => a.startedAt > promotedAt && a.cache === 'HIT').length, 'pages served from the cache after the promotion').toBeGreaterThan(0);
  }, 60_000);
});

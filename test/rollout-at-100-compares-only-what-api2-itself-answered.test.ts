/**
 * At a rollout's 100 % step the answers api2 gives are compared with legacy's, asked in the
 * background (339df81). Only an answer api2 itself gave, with a body, is evidence about the mapping:
 * - a 304 to a revalidating client (If-None-Match; 7663e4c gave api2-mode answers ETags) has no
 *   body: compared with legacy's 200 it read as a status difference, and enough revalidating
 *   clients sent an honest mapping back from 100 %;
 * - a fallback (api2 failed, legacy answered) is legacy's own answer: compared with legacy it read
 *   as agreement while api2 was failing.
 */
import { expect, it } from 'vitest';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { send } from './support/http.js';
import { snapshot, startRolloutRig } from './support/rollout.js';
import { waitFor } from './support/wait.js';
import { closedAfterEachTest } from './support/cleanup.js';

const cleanup = closedAfterEachTest();

const SEARCH = { target: '/recipes?title_kw=soup&rpp=5&api_key=sandbox-free-key', headers: { accept: 'application/json' } };
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

/** A gateway whose rollout of recipes.search stands at 100 % (pausing on failure, no evaluation during the test), with `extra` config. */
async function atHundredPercent(extra: Partial<GatewayConfigInput> = {}) {
  const rig = await startRolloutRig(cleanup, {
    routes: { 'recipes.search': { rollout: { steps: [100], onFailure: 'pause' } } },
    rollout: { evaluationMs: 60_000 },
    ...extra,
  });
  expect(snapshot(rig.gateway).operations[0]?.state).toMatchObject({ operation: 'recipes.search', at: 100 });
  return rig;
}

it('never counts a 304 api2 gave a revalidating client as differing from legacy', async () => {
  const { gateway } = await atHundredPercent();
  const first = await send(gateway.origin, SEARCH);
  expect(first.status).toBe(200);
  expect(gateway.records.at(-1)).toMatchObject({ mode: 'api2' });
  await waitFor(() => gateway.shadows.length === 1);
  expect(gateway.shadows[0]).toMatchObject({ outcome: 'equal' });
  const again = await send(gateway.origin, { ...SEARCH, headers: { ...SEARCH.headers, 'if-none-match': String(first.headers['etag']) } });
  expect(again.status).toBe(304);
  expect(gateway.records.at(-1)).toMatchObject({ mode: 'api2', status: 304 });
  await settle();
  expect(gateway.shadows.filter((shadow) => shadow.outcome === 'differ'), JSON.stringify(gateway.shadows)).toEqual([]);
});

it('never compares a fallback (legacy answering for a failed api2) as if api2 had given it', async () => {
  const { gateway, front } = await atHundredPercent({ traffic: { breakers: { api2: { failureThreshold: 100, openMs: 60_000 } } } });
  front.mode = 'status-5xx';
  for (let i = 0; i < 3; i++) {
    expect((await send(gateway.origin, SEARCH)).status).toBe(200);
    expect(gateway.records.at(-1)).toMatchObject({ mode: 'legacy', fallback: true });
  }
  await settle();
  expect(gateway.shadows, JSON.stringify(gateway.shadows)).toEqual([]);
});

it('compares one api2 answer once: HITs of its stored page are not compared again', async () => {
  const { gateway } = await atHundredPercent({ cache: { enabled: true } });
  for (const expected of ['MISS', 'HIT', 'HIT']) {
    const answered = await send(gateway.origin, SEARCH);
    expect(answered.status).toBe(200);
    expect(answered.headers['x-cache']).toBe(expected);
  }
  await waitFor(() => gateway.shadows.length >= 1);
  await settle();
  expect(gateway.shadows.map((shadow) => shadow.outcome)).toEqual(['equal']);
});

it('compares an XML client\'s requests at 100 % too, in JSON, and a HIT of the stored page not again', async () => {
  const { gateway } = await atHundredPercent({ cache: { enabled: true } });
  for (const expected of ['MISS', 'HIT']) {
    const answered = await send(gateway.origin, { target: SEARCH.target });
    expect(answered.status).toBe(200);
    expect(String(answered.headers['content-type'])).toMatch(/xml/);
    expect(answered.headers['x-cache']).toBe(expected);
    expect(gateway.records.at(-1)).toMatchObject({ mode: 'api2' });
  }
  await waitFor(() => gateway.shadows.length >= 1);
  await settle();
  expect(gateway.shadows.map((shadow) => shadow.outcome), JSON.stringify(gateway.shadows)).toEqual(['equal']);
});

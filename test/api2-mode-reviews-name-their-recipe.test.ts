/**
 * api2's Review does not name its recipe, but the gateway remembers the recipe of every review it
 * has seen (create, update, the reviews of a recipe), per process and, in a fleet, through Redis.
 * In api2 mode `reviews.get` answers that recipe, as the legacy backend does; a review the gateway
 * never saw gets RecipeID 0 (docs/decisions.md), never null: the legacy type is a number, and a
 * typed client (a .NET `int RecipeID`) cannot read null.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACEHOLDER_PHOTO_URL } from '../src/sandbox/dataset/dataset.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { basic, send } from './support/http.js';
import type { RawResponse } from './support/http.js';
import { MAPPED_ROUTES, startApi2ModeRig } from './support/api2-mode.js';
import type { Api2ModeRig } from './support/api2-mode.js';
import { redisOverrides, startReplicas } from './support/fleet.js';
import { startTestRedis } from './support/redis-server.js';

const KEY = 'api_key=sandbox-free-key';
const J = { accept: 'application/json' };
const ALICE = { ...J, authorization: basic('alice', 'alice-pass'), 'content-type': 'application/json' };

const recipeOf = (res: RawResponse): unknown => (res.json() as { RecipeID?: unknown }).RecipeID;
const xmlRecipeOf = (res: RawResponse): string | undefined => /<RecipeID[^>]*>([^<]*)<\/RecipeID>|<RecipeID i:nil="true" \/>/.exec(res.text())?.[0];

const create = (origin: string, rid: number) =>
  send(origin, { method: 'POST', target: `/reviews?${KEY}`, headers: ALICE, body: JSON.stringify({ rid, rating: 5, makeagain: 'yes', message: 'Named recipe' }) });

/** A review in the dataset, found through the legacy backend directly (the gateway never sees it). */
async function datasetReview(legacyOrigin: string): Promise<{ id: number; rid: number }> {
  for (let rid = 1; rid <= 200; rid++) {
    const listed = await send(legacyOrigin, { target: `/reviews?rid=${rid}&${KEY}`, headers: J });
    const first = listed.status === 200 ? (listed.json() as Array<{ ReviewID: number }>)[0] : undefined;
    if (first) return { id: first.ReviewID, rid };
  }
  throw new Error('no reviewed recipe among the first 200');
}

describe('api2-mode reviews.get, one gateway', () => {
  let rig: Api2ModeRig;
  beforeAll(async () => {
    rig = await startApi2ModeRig();
  });
  afterAll(() => rig.close());

  it('names the recipe of a review created through the gateway, in JSON and XML, as legacy does', async () => {
    const created = await create(rig.gateway.origin, 13);
    expect(created.status).toBe(200);
    const id = (created.json() as { ReviewID: number }).ReviewID;
    const json = await send(rig.gateway.origin, { target: `/review/${id}?${KEY}`, headers: J });
    expect(rig.gateway.records.at(-1)?.mode).toBe('api2');
    expect(json.status).toBe(200);
    expect(recipeOf(json)).toBe(13);
    const xml = await send(rig.gateway.origin, { target: `/review/${id}?${KEY}` });
    expect(xmlRecipeOf(xml)).toBe('<RecipeID>13</RecipeID>');
    // The legacy backend behind the gateway shares api2's data: it names the same recipe.
    const legacy = await send(rig.legacyBehind.origin, { target: `/review/${id}?${KEY}`, headers: J });
    expect(recipeOf(json)).toBe(recipeOf(legacy));
  });

  it('answers 0, never null, for a review it never saw, and its recipe once the reviews of that recipe were read', async () => {
    const { id, rid } = await datasetReview(rig.legacyBehind.origin);
    const unseen = await send(rig.gateway.origin, { target: `/review/${id}?${KEY}`, headers: J });
    expect(unseen.status).toBe(200);
    expect(recipeOf(unseen)).toBe(0);
    expect(xmlRecipeOf(await send(rig.gateway.origin, { target: `/review/${id}?${KEY}` }))).toBe('<RecipeID>0</RecipeID>');

    expect((await send(rig.gateway.origin, { target: `/reviews?rid=${rid}&${KEY}`, headers: J })).status).toBe(200);
    expect(recipeOf(await send(rig.gateway.origin, { target: `/review/${id}?${KEY}`, headers: J }))).toBe(rid);
  });
});

describe('api2-mode reviews.get, two replicas sharing one redis', () => {
  it('names through B the recipe of a review created through A, asked right after A answered', async () => {
    const redis = await startTestRedis();
    const api2 = await startApi2Sandbox();
    const legacy = await startLegacySandbox();
    const [a, b] = await startReplicas(legacy.origin, {
      ...redisOverrides(redis),
      upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
      api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
      routes: MAPPED_ROUTES,
    });
    try {
      for (const rid of [21, 22, 23, 24, 25]) {
        const created = await create(a.origin, rid);
        expect(created.status).toBe(200);
        const id = (created.json() as { ReviewID: number }).ReviewID;
        const read = await send(b.origin, { target: `/review/${id}?${KEY}`, headers: J });
        expect(read.status).toBe(200);
        expect(recipeOf(read), `review ${id} of recipe ${rid}`).toBe(rid);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([api2.close(), legacy.close(), redis.close()]);
    }
  });
});

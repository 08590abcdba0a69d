/**
 * Item 2 of issue 16: the sandbox serves one dataset behind both interfaces, as production does.
 * Through a real gateway, for every combination of routes (writes on legacy or api2, reads on
 * legacy or api2), a review, a grocery item, a favorite and a try soon written through one
 * interface are read back through the other: created, changed and deleted.
 * Favorites and try soons are written on legacy only (api2 has no endpoint for them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api2Store } from '../src/sandbox/api2-store.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import type { StartedApi2Sandbox } from '../src/sandbox/api2-start.js';
import { PLACEHOLDER_PHOTO_URL } from '../src/sandbox/dataset/dataset.js';
import { createSandboxStores } from '../src/sandbox/shared-stores.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { basic, send } from './support/http.js';
import type { RawResponse } from './support/http.js';
import { FROZEN_NOW } from './support/parity.js';

type Mode = 'legacy' | 'api2';
const KEY = 'api_key=sandbox-free-key';
const USER = { accept: 'application/json', authorization: basic('alice', 'alice-pass'), 'content-type': 'application/json' };
const WRITES = ['reviews.create', 'reviews.update', 'reviews.delete', 'grocery.create', 'grocery.update', 'grocery.delete'];
const READS = ['reviews.get', 'reviews.list', 'grocery.list', 'favorites.list', 'trysoons.list'];
const COMBINATIONS: ReadonlyArray<readonly [Mode, Mode]> = [
  ['legacy', 'api2'],
  ['api2', 'legacy'],
  ['api2', 'api2'],
  ['legacy', 'legacy'],
];

let legacy: StartedLegacySandbox;
let api2: StartedApi2Sandbox;
let api2Store: Api2Store;
let publicRecipes: number[] = [];

beforeAll(async () => {
  const stores = createSandboxStores({ now: () => FROZEN_NOW });
  api2Store = stores.api2;
  legacy = await startLegacySandbox({ store: stores.legacy });
  api2 = await startApi2Sandbox({ store: stores.api2 });
  const page = (await send(legacy.origin, { target: `/recipes?rpp=40&${KEY}`, headers: { accept: 'application/json' } })).json() as { Results: Array<{ RecipeID: number }> };
  publicRecipes = page.Results.map((r) => r.RecipeID);
});
afterAll(async () => {
  await Promise.all([legacy?.close(), api2?.close()]);
});

async function gatewayFor(writes: Mode, reads: Mode): Promise<TestGateway> {
  const routes = Object.fromEntries([...WRITES.map((id) => [id, { mode: writes }]), ...READS.map((id) => [id, { mode: reads }])]);
  return startTestGateway(legacy.origin, {
    upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
    routes,
  });
}

function call(gateway: TestGateway, method: string, target: string, body?: unknown): Promise<RawResponse> {
  return send(gateway.origin, { method, target: `${target}${target.includes('?') ? '&' : '?'}${KEY}`, headers: USER, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

/** Asserts the operation ran in the expected mode (the record), and its status. */
function ran(gateway: TestGateway, response: RawResponse, operation: string, mode: Mode, status: number): RawResponse {
  const record = gateway.records.at(-1);
  expect(record?.operation, operation).toBe(operation);
  expect(record?.mode, `${operation} mode`).toBe(mode);
  expect(response.status, `${operation}: ${response.text()}`).toBe(status);
  return response;
}

describe('one sandbox dataset behind both interfaces', () => {
  it.each(COMBINATIONS.map(([w, r], index) => [w, r, index] as const))('writes on %s are read on %s: reviews, grocery, favorites, try soons', async (writes, reads, index) => {
    const gateway = await gatewayFor(writes, reads);
    try {
      const rid = publicRecipes[index * 3] as number;
      const tag = `${writes}-to-${reads}`;

      // Reviews: create, read one and all, update, delete.
      const created = ran(gateway, await call(gateway, 'POST', '/reviews', { rid, rating: 4, makeagain: 'yes', message: `made ${tag}` }), 'reviews.create', writes, 200);
      const reviewId = (created.json() as { ReviewID: number }).ReviewID;
      const one = ran(gateway, await call(gateway, 'GET', `/review/${reviewId}`), 'reviews.get', reads, 200).json() as { Comment: string; StarRating: number };
      expect(one).toMatchObject({ Comment: `made ${tag}`, StarRating: 4 });
      const all = ran(gateway, await call(gateway, 'GET', `/reviews?rid=${rid}`), 'reviews.list', reads, 200).json() as Array<{ ReviewID: number; Comment: string }>;
      expect(all.find((r) => r.ReviewID === reviewId)?.Comment).toBe(`made ${tag}`);
      ran(gateway, await call(gateway, 'PUT', `/review/${reviewId}`, { rid, rating: 2, makeagain: 'no', message: `changed ${tag}` }), 'reviews.update', writes, 200);
      expect(ran(gateway, await call(gateway, 'GET', `/review/${reviewId}`), 'reviews.get', reads, 200).json()).toMatchObject({ Comment: `changed ${tag}`, StarRating: 2 });
      ran(gateway, await call(gateway, 'DELETE', `/review/${reviewId}`), 'reviews.delete', writes, 204);
      ran(gateway, await call(gateway, 'GET', `/review/${reviewId}`), 'reviews.get', reads, 404);

      // Grocery: add, change, delete; the list read on the other side follows each step.
      const names = async (): Promise<string[]> =>
        ((ran(gateway, await call(gateway, 'GET', '/grocerylist'), 'grocery.list', reads, 200).json() as { Items: Array<{ Name: string }> }).Items).map((i) => i.Name);
      const item = ran(gateway, await call(gateway, 'POST', '/grocerylist', { quantity: '1 lb', name: `flour ${tag}` }), 'grocery.create', writes, 200).json() as { ItemID: number };
      expect(await names()).toContain(`flour ${tag}`);
      ran(gateway, await call(gateway, 'PUT', `/grocerylist/${item.ItemID}`, { quantity: '2 lb', name: `rye ${tag}` }), 'grocery.update', writes, 200);
      expect(await names()).toEqual(expect.arrayContaining([`rye ${tag}`]));
      expect(await names()).not.toContain(`flour ${tag}`);
      ran(gateway, await call(gateway, 'DELETE', `/grocerylist/${item.ItemID}`), 'grocery.delete', writes, 204);
      expect(await names()).not.toContain(`rye ${tag}`);

      // Favorites and try soons: written on legacy (the only side that can), read on `reads`.
      for (const [path, prefix] of [['/favorites', 'favorites'], ['/trysoons', 'trysoons']] as const) {
        const listed = async (): Promise<{ ResultCount: number; ids: number[] }> => {
          const result = ran(gateway, await call(gateway, 'GET', path), `${prefix}.list`, reads, 200).json() as { ResultCount: number; Results: Array<{ RecipeID: number }> };
          return { ResultCount: result.ResultCount, ids: result.Results.map((r) => r.RecipeID) };
        };
        const before = await listed();
        const added = before.ids.includes(1) ? (publicRecipes.find((id) => !before.ids.includes(id)) as number) : 1;
        ran(gateway, await call(gateway, 'POST', `${path}?rid=${added}`), `${prefix}.create`, 'legacy', 204);
        const after = await listed();
        expect(after.ids).toContain(added);
        expect(after.ResultCount).toBe(before.ResultCount + 1);
        ran(gateway, await call(gateway, 'DELETE', `${path}?rid=${added}`), `${prefix}.delete`, 'legacy', 204);
        expect(await listed()).toEqual(before);
      }
    } finally {
      await gateway.close();
    }
  });

  it('the api2 grocery list version moves with a legacy write', async () => {
    const user = 1001;
    const before = api2Store.groceryList(user).VersionGuid;
    const gateway = await gatewayFor('legacy', 'api2');
    try {
      ran(gateway, await call(gateway, 'POST', '/grocerylist', { quantity: '1', name: 'salt' }), 'grocery.create', 'legacy', 200);
    } finally {
      await gateway.close();
    }
    expect(api2Store.groceryList(user).VersionGuid).not.toBe(before);
    expect(api2Store.groceryList(user).Items?.map((i) => i.Name)).toContain('salt');
  });
});

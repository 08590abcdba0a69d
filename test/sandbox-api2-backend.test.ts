/**
 * The api2 sandbox backend over real HTTPS on 127.0.0.1 (no mocks): every operation once, each
 * answer checked against the published api2 spec (test/support/api2-openapi.ts), the auth and
 * paging rules, TLS only, and parity with the legacy sandbox store on the same dataset.
 */
import { request as httpRequest } from 'node:http';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { basicHeader } from '../src/legacy/basic-auth.js';
import type { Review as LegacyReview } from '../src/legacy/records.js';
import { reviewGuid } from '../src/sandbox/api2-records.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import type { StartedApi2Sandbox } from '../src/sandbox/api2-start.js';
import { buildDataset, guidFromCounter, PLACEHOLDER_PHOTO_URL, SANDBOX_API_KEYS, SANDBOX_LOGINS } from '../src/sandbox/dataset/dataset.js';
import { LegacyStore } from '../src/sandbox/legacy-store.js';
import { validateApi2Request, validateApi2Response } from './support/api2-openapi.js';
import type { GroceryList, RecipeSearchResult, Review, ShoppingListLine as Line } from '../mappings/api2-schemas.js';

/**
 * The answers as the gateway reads them (the schemas of mappings/api2-schemas.ts, where the spec
 * makes every field optional), with the fields these tests read taken as sent: each answer is
 * validated against the spec, and its values are asserted.
 */
type Sent<T> = T extends readonly (infer U)[] ? Sent<U>[] : T extends object ? { [K in keyof T]-?: Sent<Exclude<T[K], undefined>> } : T;
type Api2RecipeSearchResult = Sent<z.infer<typeof RecipeSearchResult>>;
type Api2Review = Sent<z.infer<typeof Review>>;
type Api2GroceryList = Sent<z.infer<typeof GroceryList>>;
type ShoppingListLine = Sent<z.infer<typeof Line>>;

const ALICE = SANDBOX_LOGINS.alice;
const BOB = SANDBOX_LOGINS.bob;
const dataset = buildDataset();
/** Public recipes no seeded review of alice or bob and no list entry touches: free for writes. */
const untouched = dataset.recipes.filter(
  (r) =>
    !r.isPrivate &&
    !r.hideFromPublicSearch &&
    !dataset.reviews.some((v) => v.recipeId === r.id && (v.userId === ALICE.userId || v.userId === BOB.userId)) &&
    ![...dataset.favorites, ...dataset.trySoons].some((e) => e.recipeId === r.id),
);
const freeRecipe = (fromEnd: number): number => {
  const recipe = untouched[untouched.length - 1 - fromEnd];
  if (!recipe) throw new Error('not enough untouched recipes');
  return recipe.id;
};

interface CallOptions {
  /** Default: the paid key in the header; null: no key. */
  readonly key?: string | null;
  /** Send the key as query api_key instead of the header. */
  readonly keyInQuery?: boolean;
  readonly user?: { readonly user: string; readonly password: string };
  readonly json?: Readonly<Record<string, unknown>>;
  readonly form?: Readonly<Record<string, string | number>>;
}

interface Reply {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly text: string;
  readonly body: unknown;
}

let sandbox: StartedApi2Sandbox;
let agent: Agent;
/** Every Review-carrying answer body, to prove MakeAgain never appears. */
const reviewAnswers: string[] = [];

beforeAll(async () => {
  sandbox = await startApi2Sandbox();
  agent = new Agent({ connect: { ca: sandbox.caPem } });
});

afterAll(async () => {
  await agent?.close();
  await sandbox?.close();
});

/** Calls the sandbox; the request is validated against the spec, and so is every answer. */
async function call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const key = options.key === undefined ? SANDBOX_API_KEYS.paid : options.key;
  const headers: Record<string, string> = {};
  let target = path;
  if (key !== null && options.keyInQuery) target += `${path.includes('?') ? '&' : '?'}api_key=${encodeURIComponent(key)}`;
  else if (key !== null) headers['x-bigoven-api-key'] = key;
  if (options.user) headers['authorization'] = basicHeader(options.user.user, options.user.password);
  let body: string | undefined;
  if (options.json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(Object.entries(options.form).map(([k, v]) => [k, String(v)])).toString();
  }
  expect(validateApi2Request({ method, path: target, headers, body })).toEqual([]);
  const res = await request(`${sandbox.origin}${target}`, { method: method as 'GET', headers, dispatcher: agent, ...(body !== undefined ? { body } : {}) });
  const text = await res.body.text();
  const parsed = JSON.parse(text) as unknown;
  expect(validateApi2Response(method, path, res.statusCode, parsed), `${method} ${path} ${text.slice(0, 300)}`).toEqual([]);
  const contentType = res.headers['content-type'];
  return { status: res.statusCode, contentType: typeof contentType === 'string' ? contentType : undefined, text, body: parsed };
}

async function ok<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const reply = await call(method, path, options);
  expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  expect(reply.contentType).toBe('application/json; charset=utf-8');
  if (path.includes('/review')) reviewAnswers.push(reply.text);
  return reply.body as T;
}

async function status(method: string, path: string, options: CallOptions = {}): Promise<number> {
  const reply = await call(method, path, options);
  expect(reply.body).toMatchObject({ Message: expect.any(String) });
  return reply.status;
}

describe('the spec validator', () => {
  it('accepts a valid Review array and reports wrong types, nulls, legacy dates and unknown paths', () => {
    const review = { ID: reviewGuid(1), ReviewID: 1, StarRating: 4, Comment: 'ok', CreationDate: '2016-01-02T03:04:05.678Z', Poster: { UserID: 7 } };
    expect(validateApi2Response('GET', '/recipe/12/reviews', 200, [review])).toEqual([]);
    const wrong = validateApi2Response('GET', '/recipe/12/reviews', 200, [
      { ...review, StarRating: 'four', Comment: null, CreationDate: '/Date(1451703845678)/' },
    ]);
    expect(wrong.join('\n')).toMatch(/\/0\/StarRating must be number/);
    expect(wrong.join('\n')).toMatch(/\/0\/Comment must be string/);
    expect(wrong.join('\n')).toMatch(/\/0\/CreationDate must match format "date-time"/);
    expect(validateApi2Response('POST', '/recipe/12/review', 200, null)).not.toEqual([]);
    expect(validateApi2Response('GET', '/no/such/path', 200, {})).not.toEqual([]);
    expect(validateApi2Response('GET', '/recipes', 403, { Message: 'no' })).toEqual([]);
    expect(validateApi2Response('GET', '/recipes', 403, 'no')).not.toEqual([]);
  });

  it('reports a wrong request body, in JSON and in a form', () => {
    const json = { 'content-type': 'application/json' };
    expect(validateApi2Request({ method: 'POST', path: '/recipe/5/review', headers: json, body: { StarRating: 5, MakeAgain: 'yes', Comment: 'x' } })).toEqual([]);
    expect(validateApi2Request({ method: 'POST', path: '/recipe/5/review', headers: json, body: { StarRating: 'five' } })).toEqual([
      expect.stringMatching(/\/requestBody\/StarRating must be integer/),
    ]);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(validateApi2Request({ method: 'POST', path: '/recipe/5/review', headers: form, body: 'StarRating=5&Comment=x' })).toEqual([]);
    expect(validateApi2Request({ method: 'POST', path: '/recipe/5/review', headers: form, body: 'StarRating=five' })).not.toEqual([]);
    expect(validateApi2Request({ method: 'GET', path: '/recipes?pg=x&rpp=5&photos=maybe' })).toHaveLength(2);
    expect(validateApi2Request({ method: 'GET', path: '/recipe/abc/reviews' })).not.toEqual([]);
  });
});

describe('parity with the legacy sandbox on the same dataset', () => {
  const legacy = new LegacyStore();

  it('reads the same recipes, in the same order, through search', async () => {
    const api2 = await ok<Api2RecipeSearchResult>('GET', '/recipes?pg=2&rpp=50');
    const old = legacy.search({ page: 2, perPage: 50 }, null);
    expect(api2.ResultCount).toBe(old.ResultCount);
    expect(api2.Results.map((r) => r.RecipeID)).toEqual(old.Results.map((r) => r.RecipeID));
    api2.Results.forEach((now, i) => {
      const was = old.Results[i];
      if (!was) throw new Error('missing legacy result');
      expect({ Title: now.Title, Category: now.Category, Subcategory: now.Subcategory, StarRating: now.StarRating, ReviewCount: now.ReviewCount }).toEqual({
        Title: was.Title,
        Category: was.Category,
        Subcategory: was.Subcategory,
        StarRating: was.StarRating,
        ReviewCount: was.ReviewCount,
      });
      expect(now.Cuisine ?? null).toBe(was.Cuisine);
      expect(now.Servings).toBe(was.YieldNumber);
      expect(now.PhotoUrl ?? PLACEHOLDER_PHOTO_URL).toBe(was.ImageURL);
      expect(now.Poster?.UserID ?? 0).toBe(was.Poster.UserID);
      expect(new Date(now.CreationDate).getTime()).toBe(Number(/\((\d+)\)/.exec(was.CreationDate)?.[1]));
      expect(now.WebURL).toBe(was.WebURL);
      expect(now.TotalTries).toBe(was.TotalTries);
    });
    // The page holds the edge cases: null cuisine, no photo, unknown poster.
    expect(api2.Results.some((r) => r.Cuisine === undefined)).toBe(true);
    expect(api2.Results.some((r) => r.PhotoUrl === undefined)).toBe(true);
    expect(api2.Results.some((r) => r.Poster === undefined)).toBe(true);
    expect(Object.keys(api2)).toEqual(['ResultCount', 'Results']); // SpellSuggest omitted, never null
  });

  it('reads the same review, by string ID and by integer ids', async () => {
    for (const seeded of [dataset.reviews[0], dataset.reviews[123], dataset.reviews.find((r) => r.totalMinutes === null)]) {
      if (!seeded) throw new Error('no review');
      const was = legacy.getReview(seeded.id);
      if (!was.ok) throw new Error('legacy review missing');
      const byGuid = await ok<Api2Review>('GET', `/recipe/review/${reviewGuid(seeded.id)}`);
      const byInts = await ok<Api2Review>('GET', `/recipe/${seeded.recipeId}/review/${seeded.id}`);
      expect(byInts).toEqual(byGuid);
      expect(byGuid).toMatchObject({ ReviewID: was.value.ReviewID, StarRating: was.value.StarRating, Comment: was.value.Comment, ReplyCount: 0 });
      expect(byGuid.TotalMinutes ?? null).toBe(was.value.TotalMinutes);
      expect(byGuid.ActiveMinutes ?? null).toBe(was.value.ActiveMinutes);
      expect(byGuid.Poster.ImageUrl48 ?? null).toBe(was.value.Poster.ImageURL48);
    }
  });

  it('lists a recipe\'s reviews in the legacy order', async () => {
    const recipeId = dataset.reviews[40]?.recipeId ?? 0;
    const was = legacy.listReviews(recipeId, null);
    if (!was.ok) throw new Error('legacy list missing');
    const now = await ok<Api2Review[]>('GET', `/recipe/${recipeId}/reviews?pg=1&rpp=50`);
    expect(now.map((r) => r.ReviewID)).toEqual(was.value.map((r: LegacyReview) => r.ReviewID));
    const firstTwo = await ok<Api2Review[]>('GET', `/recipe/${recipeId}/reviews?rpp=2`);
    expect(firstTwo.map((r) => r.ReviewID)).toEqual(was.value.slice(0, 2).map((r) => r.ReviewID));
  });

  it('reads the same grocery items, and gives a new item the legacy ItemID and GUID', async () => {
    const was = legacy.listGrocery(ALICE.userId);
    const now = await ok<Api2GroceryList>('GET', '/grocerylist', { user: ALICE });
    expect(now.Items.map((i) => [i.ItemID, i.GUID, i.Name, i.DisplayQuantity, i.Notes, i.Department])).toEqual(
      was.Items.map((i) => [i.ItemID, i.GUID, i.Name, i.DisplayQuantity, i.Notes, i.Department]),
    );
    expect(now.Recipes).toEqual([]);
    const line = await ok<ShoppingListLine>('POST', '/grocerylist/item', { user: ALICE, json: { name: 'flour', quantity: '2', unit: 'cups', notes: '', department: 'Baking' } });
    const legacyItem = legacy.createGrocery(ALICE.userId, { name: 'flour', quantity: '2 cups', notes: '', department: 'Baking' });
    expect([line.ShoppingListLineID, line.GUID, line.TextAmt, line.ItemName]).toEqual([legacyItem.ItemID, legacyItem.GUID, legacyItem.DisplayQuantity, legacyItem.Name]);
    expect(line.GUID).toBe(guidFromCounter(line.ShoppingListLineID));
  });
});

describe('search', () => {
  it('accepts the key in the header or as api_key, and pages', async () => {
    const byHeader = await ok<Api2RecipeSearchResult>('GET', '/recipes?title_kw=soup&pg=1&rpp=5', { key: SANDBOX_API_KEYS.free });
    const byQuery = await ok<Api2RecipeSearchResult>('GET', '/recipes?title_kw=soup&pg=1&rpp=5', { key: SANDBOX_API_KEYS.free, keyInQuery: true });
    expect(byQuery).toEqual(byHeader);
    expect(byHeader.Results).toHaveLength(5);
    expect(byHeader.Results.every((r) => r.Title.toLowerCase().includes('soup') && r.IsBookmark === false)).toBe(true);
  });

  it('applies the paid filters with api2 category tokens; the free key is refused them', async () => {
    const found = await ok<Api2RecipeSearchResult>('GET', '/recipes?include_primarycat=maindish,soups&photos=true&include_ing=chicken&pg=1&rpp=20');
    expect(found.ResultCount).toBeGreaterThan(0);
    expect(found.Results.every((r) => ['Main Dish', 'Soups'].includes(r.Category) && r.PhotoUrl !== undefined)).toBe(true);
    const legacy = new LegacyStore().search({ category: 'main dish', photos: true, includeIng: ['chicken'], perPage: 50 }, null);
    const api2 = await ok<Api2RecipeSearchResult>('GET', '/recipes?include_primarycat=maindish&photos=true&include_ing=chicken&pg=1&rpp=50');
    expect(api2.Results.map((r) => r.RecipeID)).toEqual(legacy.Results.map((r) => r.RecipeID));
    for (const query of ['include_primarycat=desserts', 'cuisine=Italian', 'include_ing=salt', 'exclude_ing=salt', 'photos=true']) {
      expect(await status('GET', `/recipes?${query}&pg=1&rpp=5`, { key: SANDBOX_API_KEYS.free })).toBe(403);
    }
    await ok('GET', '/recipes?photos=false&pg=1&rpp=5', { key: SANDBOX_API_KEYS.free });
  });

  it('requires pg and rpp, rpp at most 50; refuses legacy category tokens', async () => {
    expect(await status('GET', '/recipes?rpp=5')).toBe(400);
    expect(await status('GET', '/recipes?pg=1')).toBe(400);
    expect(await status('GET', '/recipes?pg=1&rpp=51')).toBe(400);
    expect(await status('GET', '/recipes?pg=1&rpp=5&include_primarycat=dessert')).toBe(400);
  });

  it('filter=favorites and filter=try read the user\'s lists in their order, and need the user', async () => {
    const favorites = dataset.favorites.filter((e) => e.userId === ALICE.userId).map((e) => e.recipeId);
    const found = await ok<Api2RecipeSearchResult>('GET', '/recipes?filter=favorites&pg=1&rpp=50', { user: ALICE });
    expect(found.Results.map((r) => r.RecipeID)).toEqual(favorites);
    expect(found.Results.every((r) => r.IsBookmark)).toBe(true);
    const trySoons = dataset.trySoons.filter((e) => e.userId === BOB.userId).map((e) => e.recipeId);
    const tries = await ok<Api2RecipeSearchResult>('GET', '/recipes?filter=try&pg=1&rpp=50', { user: BOB });
    expect(tries.Results.map((r) => r.RecipeID)).toEqual(trySoons);
    expect(await status('GET', '/recipes?filter=favorites&pg=1&rpp=5')).toBe(403);
  });
});

describe('authentication', () => {
  it('answers 403 without a key, with an unknown key, without Basic on a user call, with a wrong password', async () => {
    expect(await status('GET', '/recipes?pg=1&rpp=5', { key: null })).toBe(403);
    expect(await status('GET', '/recipes?pg=1&rpp=5', { key: 'not-a-key' })).toBe(403);
    expect(await status('GET', '/recipes?pg=1&rpp=5', { key: 'not-a-key', keyInQuery: true })).toBe(403);
    expect(await status('GET', '/grocerylist')).toBe(403);
    expect(await status('GET', '/grocerylist', { user: { user: 'alice', password: 'wrong' } })).toBe(403);
    expect(await status('GET', '/recipes?pg=1&rpp=5', { user: { user: 'mallory', password: 'x' } })).toBe(403);
  });

  it('answers 404 to an unknown path', async () => {
    const res = await request(`${sandbox.origin}/nothing/here`, { dispatcher: agent, headers: { 'x-bigoven-api-key': SANDBOX_API_KEYS.paid } });
    expect(res.statusCode).toBe(404);
    expect(await res.body.json()).toMatchObject({ Message: expect.any(String) });
  });

  it('serves TLS only: a plain-http request is refused, not answered', async () => {
    const { hostname, port } = new URL(sandbox.origin);
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest({ host: hostname, port, path: '/recipes?pg=1&rpp=1', agent: false, timeout: 5_000 }, (res) => {
        res.resume();
        resolve(`answered ${res.statusCode}`);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (error) => resolve(`error ${(error as NodeJS.ErrnoException).code ?? error.message}`));
      req.end();
    });
    expect(outcome).toMatch(/^error /);
  });
});

describe('reviews', () => {
  const recipeId = freeRecipe(0);

  it('POST twice keeps one review (the second updates it); GET .../review returns the caller\'s', async () => {
    expect(await status('GET', `/recipe/${recipeId}/review`, { user: ALICE })).toBe(404);
    const expectedId = Math.max(...dataset.reviews.map((r) => r.id)) + 1;
    expect(await ok('POST', `/recipe/${recipeId}/review`, { user: ALICE, json: { StarRating: 4, MakeAgain: 'yes', Comment: 'first', TotalMinutes: 30 } })).toEqual({});
    const first = await ok<Api2Review>('GET', `/recipe/${recipeId}/review`, { user: ALICE });
    expect(first).toMatchObject({ ReviewID: expectedId, ID: reviewGuid(expectedId), StarRating: 4, Comment: 'first', TotalMinutes: 30, Poster: { UserID: ALICE.userId } });
    expect(await ok('POST', `/recipe/${recipeId}/review`, { user: ALICE, form: { StarRating: 2, MakeAgain: 'no', Comment: 'second' } })).toEqual({});
    const list = await ok<Api2Review[]>('GET', `/recipe/${recipeId}/reviews?pg=1&rpp=10`);
    expect(list.filter((r) => r.Poster.UserID === ALICE.userId)).toEqual([expect.objectContaining({ ReviewID: expectedId, StarRating: 2, Comment: 'second' })]);
    expect(list.find((r) => r.ReviewID === expectedId)?.TotalMinutes).toBeUndefined();
    expect(await status('POST', `/recipe/${recipeId}/review`, { user: ALICE, json: { StarRating: 4, MakeAgain: 'notmake', Comment: 'x' } })).toBe(400);
    expect(await status('POST', `/recipe/${recipeId}/review`, { user: ALICE, json: { StarRating: 9, MakeAgain: 'yes', Comment: 'x' } })).toBe(400);
  });

  it('PUT /recipe/review/{ID}: the author only', async () => {
    const mine = await ok<Api2Review>('GET', `/recipe/${recipeId}/review`, { user: ALICE });
    const updated = await ok<Api2Review>('PUT', `/recipe/review/${mine.ID}`, { user: ALICE, json: { StarRating: 5, MakeAgain: 'yes', Comment: 'third', ActiveMinutes: 10 } });
    expect(updated).toMatchObject({ ID: mine.ID, ReviewID: mine.ReviewID, StarRating: 5, Comment: 'third', ActiveMinutes: 10 });
    expect(await status('PUT', `/recipe/review/${mine.ID}`, { user: BOB, json: { StarRating: 1, MakeAgain: 'no', Comment: 'mine now' } })).toBe(403);
    // [I] the old integer ReviewID is answered there too (api2-notes map GET /review/{id} to it).
    expect(await ok<Api2Review>('GET', `/recipe/review/${mine.ReviewID}`)).toMatchObject({ ID: mine.ID, Comment: 'third' });
    expect(await status('GET', `/recipe/review/99999999`)).toBe(404);
  });

  it('the integer forms: 404 outside the recipe, author-only PUT and DELETE', async () => {
    const mine = await ok<Api2Review>('GET', `/recipe/${recipeId}/review`, { user: ALICE });
    expect(await status('GET', `/recipe/${recipeId + 1}/review/${mine.ReviewID}`)).toBe(404);
    const updated = await ok<Api2Review>('PUT', `/recipe/${recipeId}/review/${mine.ReviewID}`, { user: ALICE, json: { StarRating: 3, MakeAgain: 'yes', Comment: 'legacy put', GUID: mine.ID } });
    expect(updated).toMatchObject({ ReviewID: mine.ReviewID, StarRating: 3, Comment: 'legacy put' });
    expect(await status('PUT', `/recipe/${recipeId}/review/${mine.ReviewID}`, { user: BOB, json: { StarRating: 1, MakeAgain: 'no', Comment: 'x' } })).toBe(403);
    expect(await status('DELETE', `/recipe/${recipeId}/review/${mine.ReviewID}`, { user: BOB })).toBe(403);
    expect(await status('DELETE', `/recipe/${recipeId + 1}/review/${mine.ReviewID}`, { user: ALICE })).toBe(404);
    expect(await ok('DELETE', `/recipe/${recipeId}/review/${mine.ReviewID}`, { user: ALICE })).toEqual({});
    expect(await status('GET', `/recipe/review/${mine.ID}`)).toBe(404);
    expect(await status('GET', `/recipe/${recipeId}/review`, { user: ALICE })).toBe(404);
  });

  it('never answers MakeAgain', () => {
    expect(reviewAnswers.length).toBeGreaterThan(8);
    expect(reviewAnswers.filter((text) => /makeagain/i.test(text))).toEqual([]);
  });
});

describe('grocery list', () => {
  it('adds, updates and deletes the caller\'s own items; another user\'s GUID is 404', async () => {
    const line = await ok<ShoppingListLine>('POST', '/grocerylist/item', { user: ALICE, form: { name: 'milk', quantity: '1', unit: 'gallon', department: 'Dairy' } });
    expect(line).toMatchObject({ ItemName: 'milk', TextAmt: '1 gallon', Dept: 'Dairy', Notes: '' });
    const before = await ok<Api2GroceryList>('GET', '/grocerylist', { user: ALICE });
    expect(await ok('PUT', `/grocerylist/item/${line.GUID}`, { user: ALICE, json: { name: 'oat milk', quantity: '2', ischecked: true } })).toEqual({});
    const after = await ok<Api2GroceryList>('GET', '/grocerylist', { user: ALICE });
    expect(after.Items.find((i) => i.GUID === line.GUID)).toMatchObject({ Name: 'oat milk', DisplayQuantity: '2', Department: '', IsChecked: true });
    expect(after.VersionGuid).not.toBe(before.VersionGuid);

    const bobs = await ok<Api2GroceryList>('GET', '/grocerylist', { user: BOB });
    const aliceGuids = new Set(after.Items.map((i) => i.GUID));
    expect(bobs.Items.length).toBeGreaterThan(0);
    expect(bobs.Items.some((i) => aliceGuids.has(i.GUID))).toBe(false);
    expect(await status('PUT', `/grocerylist/item/${line.GUID}`, { user: BOB, json: { name: 'stolen' } })).toBe(404);
    expect(await status('DELETE', `/grocerylist/item/${line.GUID}`, { user: BOB })).toBe(404);

    expect(await ok('DELETE', `/grocerylist/item/${line.GUID.toLowerCase()}`, { user: ALICE })).toEqual({});
    expect(await status('DELETE', `/grocerylist/item/${line.GUID}`, { user: ALICE })).toBe(404);
    expect(await status('POST', '/grocerylist/item', { user: ALICE, json: { quantity: '1' } })).toBe(400);
  });
});

describe('call tracking', () => {
  it('counted every operation by method and path template', () => {
    const templates = [
      'GET /recipes',
      'GET /recipe/{recipeId}/reviews',
      'GET /recipe/{recipeId}/review',
      'POST /recipe/{recipeId}/review',
      'GET /recipe/review/{reviewId}',
      'PUT /recipe/review/{reviewId}',
      'GET /recipe/{recipeId}/review/{reviewId}',
      'PUT /recipe/{recipeId}/review/{reviewId}',
      'DELETE /recipe/{recipeId}/review/{reviewId}',
      'GET /grocerylist',
      'POST /grocerylist/item',
      'PUT /grocerylist/item/{guid}',
      'DELETE /grocerylist/item/{guid}',
    ];
    for (const template of templates) expect(sandbox.store.calls[template], template).toBeGreaterThan(0);
    expect(Object.keys(sandbox.store.calls).sort()).toEqual([...templates].sort());
  });
});

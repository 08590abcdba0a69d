/**
 * The legacy sandbox backend, over real HTTP on 127.0.0.1 (no mocks): dataset, the operations of
 * the legacy document in JSON and XML (each answering its catalogue entry's record), the rules of the legacy document, the path forms and the HTTP details.
 */
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../src/catalogue/operations.js';
import { OPERATIONS, operationById } from '../src/catalogue/operations.js';
import { basicHeader } from '../src/legacy/basic-auth.js';
import { PRIMARY_CATEGORY_TOKENS } from '../src/legacy/param-rules.js';
import {
  GroceryItemSchema,
  GroceryListSchema,
  RecipeDetailSchema,
  RecipeInfoSchema,
  RecipeSearchResultSchema,
} from '../src/legacy/records.js';
import {
  buildDataset,
  CUISINES,
  PLACEHOLDER_PHOTO_URL,
  SANDBOX_API_KEYS,
  SANDBOX_LOGINS,
  toRecipeInfo,
} from '../src/sandbox/dataset/dataset.js';
import type { RecipeSearchResult } from '../src/legacy/records.js';
import { SANDBOX_BEHAVIOUR } from '../src/sandbox/behaviour.js';
import { createLegacySandboxApp } from '../src/sandbox/legacy-app.js';
import { encodedBody } from './support/catalogue-examples.js';
import { LegacyStore } from '../src/sandbox/legacy-store.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';

const ALICE = SANDBOX_LOGINS.alice;
const BOB = SANDBOX_LOGINS.bob;
const dataset = buildDataset();
const publicRecipes = dataset.recipes.filter((r) => !r.isPrivate && !r.hideFromPublicSearch);
/** Public recipes nobody of alice and bob touched in the seed: free for writes in these tests. */
const untouched = publicRecipes.filter(
  (r) =>
    !dataset.reviews.some((v) => v.recipeId === r.id && (v.userId === ALICE.userId || v.userId === BOB.userId)) &&
    ![...dataset.favorites, ...dataset.trySoons].some((e) => e.recipeId === r.id),
);
const freeRecipe = (index: number): number => {
  const recipe = untouched[index];
  if (!recipe) throw new Error('not enough untouched recipes');
  return recipe.id;
};

interface CallOptions {
  /** Default: the paid key; null: no api_key. */
  readonly key?: string | null;
  readonly user?: { readonly user: string; readonly password: string } | null;
  readonly json?: boolean;
  /** JSON body when json, else form-encoded. */
  readonly body?: Readonly<Record<string, string | number>>;
  readonly headers?: Readonly<Record<string, string>>;
}

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly raw: Buffer;
  readonly text: string;
  json(): unknown;
}

let sandbox: StartedLegacySandbox;

beforeAll(async () => {
  sandbox = await startLegacySandbox();
});

afterAll(async () => {
  await sandbox.close();
});

async function call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const key = options.key === undefined ? SANDBOX_API_KEYS.paid : options.key;
  const url = key === null ? path : `${path}${path.includes('?') ? '&' : '?'}api_key=${encodeURIComponent(key)}`;
  const headers: Record<string, string> = { ...options.headers };
  if (options.json) headers['accept'] = 'application/json';
  if (options.user) headers['authorization'] = basicHeader(options.user.user, options.user.password);
  let body: string | undefined;
  if (options.body) {
    const entries = Object.entries(options.body).map(([k, v]) => [k, String(v)]);
    if (options.json) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(Object.fromEntries(entries));
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(entries).toString();
    }
  }
  const res = await request(`${sandbox.origin}${url}`, { method: method as 'GET', headers, ...(body !== undefined ? { body } : {}) });
  const raw = Buffer.from(await res.body.arrayBuffer());
  const text = raw.toString('utf8');
  return { status: res.statusCode, headers: res.headers, raw, text, json: () => JSON.parse(text) as unknown };
}

/** A field of a JSON or XML answer (first occurrence). */
function field(reply: Reply, name: string): string {
  if (reply.text.startsWith('{')) {
    const value = (reply.json() as Record<string, unknown>)[name];
    return String(value);
  }
  const found = new RegExp(`<${name}>([^<]*)</${name}>`).exec(reply.text);
  if (!found?.[1]) throw new Error(`no ${name} in ${reply.text.slice(0, 200)}`);
  return found[1];
}

describe('dataset', () => {
  it('is deterministic, large and varied', () => {
    expect(buildDataset()).toEqual(dataset);
    expect(buildDataset({ seed: 7 })).not.toEqual(dataset);
    expect(dataset.recipes.length).toBeGreaterThanOrEqual(1000);
    expect(dataset.reviews.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(dataset.recipes.map((r) => r.categoryToken))).toEqual(new Set(PRIMARY_CATEGORY_TOKENS));
    const cuisines = new Set(dataset.recipes.map((r) => r.cuisine));
    expect([...cuisines].filter((c) => c && (CUISINES as readonly string[]).includes(c)).length).toBeGreaterThan(20);
    expect(cuisines.has(null) && cuisines.has('')).toBe(true);
    const share = (test: (r: (typeof dataset.recipes)[number]) => boolean): number =>
      dataset.recipes.filter(test).length / dataset.recipes.length;
    expect(share((r) => r.photoUrl !== null)).toBeGreaterThan(0.5);
    expect(share((r) => r.photoUrl !== null)).toBeLessThan(0.7);
    expect(share((r) => r.posterUserId === null)).toBeGreaterThan(0.2);
    expect(share((r) => r.posterUserId === null)).toBeLessThan(0.3);
    for (const word of ['soup', 'chicken', 'chocolate', 'salad']) {
      expect(share((r) => r.title.toLowerCase().includes(word))).toBeGreaterThan(0.03);
    }
  });

  it('renders a photo-less recipe of an unknown poster as part 2.5 says', () => {
    const recipe = dataset.recipes.find((r) => r.photoUrl === null && r.posterUserId === null);
    if (!recipe) throw new Error('no such recipe');
    const info = RecipeInfoSchema.parse(toRecipeInfo(recipe, null, { count: 0, average: 0 }, null));
    expect(info.ImageURL).toBe(PLACEHOLDER_PHOTO_URL);
    expect(info.HeroPhotoUrl).toBe(PLACEHOLDER_PHOTO_URL);
    expect(info.Poster).toMatchObject({ UserID: 0, UserName: null, ImageURL48: null, IsPremium: false });
    expect(info.IsBookmark).toBeNull();
    expect(info.StarRating).toBe(0);
  });

  it('gives each store its own copy', () => {
    const one = new LegacyStore({ dataset });
    const two = new LegacyStore({ dataset });
    one.createGrocery(ALICE.userId, { quantity: '1', name: 'salt', notes: null, department: null });
    expect(one.listGrocery(ALICE.userId).Items.length).toBe(two.listGrocery(ALICE.userId).Items.length + 1);
  });
});

describe('every catalogued operation', () => {
  it.each(OPERATIONS.flatMap((op) => [[op.id, 'JSON'], [op.id, 'XML']] as const))("%s: its entry's example is answered with the entry's success (%s)", async (id, format) => {
    const op = operationById(id);
    const { method, target, body: example } = SANDBOX_BEHAVIOUR[id].example;
    const app = createLegacySandboxApp(new LegacyStore({ dataset }));
    const headers: Record<string, string> = format === 'JSON' ? { accept: 'application/json' } : {};
    if (op.auth === 'user') headers['authorization'] = basicHeader(ALICE.user, ALICE.password);
    const body = encodedBody(example, format === 'JSON');
    if (body) headers['content-type'] = body.contentType;
    const res = await app.request(`http://sandbox${target}${target.includes('?') ? '&' : '?'}api_key=${SANDBOX_API_KEYS.free}`, { method, headers, ...(body ? { body: body.text } : {}) });
    const text = await res.text();
    expect(res.status, text).toBe(op.answer.status);
    if (op.answer.status === 204) expect(text).toBe('');
    else if (format === 'JSON') op.answer.record?.parse(JSON.parse(text));
    else expect(text).toMatch(new RegExp(`^<\\?xml [^>]*\\?><${op.answer.xmlRoot} xmlns:i=`));
  });
});

describe('the operations of the legacy document', () => {
  for (const json of [true, false]) {
    it(`each succeeds once, answering its entry's record (${json ? 'JSON' : 'XML'})`, async () => {
      const run = async (id: OperationId, method: string, path: string, options: CallOptions = {}): Promise<Reply> => {
        const reply = await call(method, path, { user: ALICE, json, ...options });
        const shape = operationById(id).answer;
        expect(reply.status, `${id}: ${reply.text}`).toBe(shape.status);
        if (shape.status === 204) {
          expect(reply.raw.length).toBe(0);
          expect(reply.headers['content-type']).toBeUndefined();
        } else if (json) {
          expect(reply.headers['content-type']).toMatch(/^application\/json/);
          shape.record?.parse(reply.json());
        } else {
          expect(reply.headers['content-type']).toMatch(/^application\/xml/);
          expect(reply.text).toMatch(new RegExp(`^<\\?xml [^>]*\\?><${shape.xmlRoot} xmlns:i=`));
        }
        return reply;
      };
      const rid = freeRecipe(json ? 0 : 1);
      const review = { rid, rating: 4, makeagain: 'yes', message: 'Very good', totaltime: 30 };
      const created = await run('reviews.create', 'POST', '/reviews', { body: review });
      const reviewId = field(created, 'ReviewID');
      await run('reviews.get', 'GET', `/review/${reviewId}`, { user: null });
      await run('reviews.list', 'GET', `/reviews?rid=${rid}`, { user: null });
      const updated = await run('reviews.update', 'PUT', `/review/${reviewId}`, { body: { ...review, rating: 2, makeagain: 'no' } });
      expect(field(updated, 'StarRating')).toBe('2');
      await run('reviews.delete', 'DELETE', `/review/${reviewId}`);

      const item = await run('grocery.create', 'POST', '/grocerylist', { body: { quantity: '2 cups', name: 'flour' } });
      const itemId = field(item, 'ItemID');
      expect((await run('grocery.list', 'GET', '/grocerylist')).text).toContain(field(item, 'GUID'));
      const changed = await run('grocery.update', 'PUT', `/grocerylist/${itemId}`, { body: { quantity: '3 cups', name: 'rye flour' } });
      expect(field(changed, 'Name')).toBe('rye flour');
      await run('grocery.delete', 'DELETE', `/grocerylist/${itemId}`);

      for (const [list, prefix] of [['/favorites', 'favorites'], ['/trysoons', 'trysoons']] as const) {
        await run(`${prefix}.create`, 'POST', list, { body: { rid } });
        expect((await run(`${prefix}.list`, 'GET', list)).text).toMatch(new RegExp(`"RecipeID":${rid},|<RecipeID>${rid}</RecipeID>`));
        await run(`${prefix}.delete`, 'DELETE', list, { body: { rid } });
      }
      await run('recipes.search', 'GET', '/recipes?title_kw=soup&rpp=5', { user: null });
    });
  }
});

describe('the rules of the legacy document', () => {
  const rid = freeRecipe(2);
  const review = { rid, rating: 4, makeagain: 'yes', message: 'Fine' };
  const cases: readonly [string, number, string, string, CallOptions, RegExp][] = [
    ['missing api_key', 403, 'GET', '/recipes', { key: null }, /api_key/],
    ['unknown api_key', 403, 'GET', '/recipes', { key: 'nope' }, /unknown api_key/],
    ['missing Basic on a user operation', 403, 'GET', '/grocerylist', {}, /HTTP Basic/],
    ['wrong password', 403, 'GET', '/grocerylist', { user: { user: 'alice', password: 'x' } }, /wrong password/],
    ['wrong password on search', 403, 'GET', '/recipes', { user: { user: 'alice', password: 'x' } }, /wrong password/],
    ['rating 6', 400, 'POST', '/reviews', { user: ALICE, body: { ...review, rating: 6 } }, /rating must/],
    ['makeagain maybe', 400, 'POST', '/reviews', { user: ALICE, body: { ...review, makeagain: 'maybe' } }, /makeagain must/],
    ['rpp 51', 400, 'GET', '/recipes?rpp=51', {}, /rpp must/],
    ['4 ingredients', 400, 'GET', '/recipes?include_ing=a,b,c,d', {}, /include_ing must/],
    ['paid params, free key', 403, 'GET', '/recipes?include_ing=rice&photos=1', { key: SANDBOX_API_KEYS.free }, /include_ing, photos/],
    ['unknown category token', 400, 'GET', '/recipes?include_primarycat=pizza', {}, /include_primarycat must/],
  ];
  for (const [name, status, method, path, options, message] of cases) {
    it(`${name} → ${status}`, async () => {
      const reply = await call(method, path, { json: true, ...options });
      expect(reply.status, reply.text).toBe(status);
      expect((reply.json() as { Message: string }).Message).toMatch(message);
    });
  }

  it('answers errors in XML without Accept: application/json', async () => {
    const reply = await call('GET', '/recipes?rpp=51');
    expect(reply.status).toBe(400);
    expect(reply.text).toContain('<Error xmlns:i=');
    expect(reply.text).toContain('<ModelState><rpp>');
  });
});

describe('store behaviour over HTTP', () => {
  it('creating a review changes ReviewCount and StarRating in search', async () => {
    const recipe = untouched.find(
      (r) => publicRecipes.filter((p) => p.title.toLowerCase().includes(r.title.toLowerCase())).length <= 50,
    );
    if (!recipe) throw new Error('no recipe with a selective title');
    const find = async () => {
      const reply = await call('GET', `/recipes?title_kw=${encodeURIComponent(recipe.title)}&rpp=50`, { json: true });
      const found = RecipeSearchResultSchema.parse(reply.json()).Results.find((r) => r.RecipeID === recipe.id);
      if (!found) throw new Error('recipe not in search');
      return found;
    };
    const before = await find();
    const created = await call('POST', '/reviews', { user: BOB, json: true, body: { rid: recipe.id, rating: 1, makeagain: 'no', message: 'Meh' } });
    expect(created.status).toBe(200);
    const after = await find();
    expect(after.ReviewCount).toBe(before.ReviewCount + 1);
    expect(after.StarRating).toBeCloseTo((before.StarRating * before.ReviewCount + 1) / (before.ReviewCount + 1));
  });

  it('search filters and IsBookmark', async () => {
    const search = async (query: string, options: CallOptions = {}): Promise<RecipeSearchResult> =>
      RecipeSearchResultSchema.parse((await call('GET', `/recipes?${query}`, { json: true, ...options })).json());
    const all = await search('rpp=50');
    expect(all.ResultCount).toBe(publicRecipes.length);
    expect(all.Results.map((r) => r.RecipeID)).toEqual(publicRecipes.slice(0, 50).map((r) => r.id));
    const page2 = await search('rpp=3&pg=2');
    expect(page2.Results.map((r) => r.RecipeID)).toEqual(publicRecipes.slice(3, 6).map((r) => r.id));
    const soups = await search('include_primarycat=soup&photos=1&rpp=50');
    expect(soups.ResultCount).toBe(publicRecipes.filter((r) => r.categoryToken === 'soup' && r.photoUrl).length);
    expect(soups.Results.every((r) => r.Category === 'Soups' && !r.ImageURL.includes('placeholder'))).toBe(true);
    const italian = await search('cuisine=ITALIAN&include_ing=chicken&exclude_ing=garlic');
    expect(italian.ResultCount).toBe(
      publicRecipes.filter(
        (r) => r.cuisine === 'Italian' && r.ingredients.some((i) => i.includes('chicken')) && !r.ingredients.some((i) => i.includes('garlic')),
      ).length,
    );
    const favorite = dataset.favorites.find((f) => f.userId === ALICE.userId);
    const favoriteRecipe = publicRecipes.find((r) => r.id === favorite?.recipeId);
    if (!favoriteRecipe) throw new Error('alice has no favorite');
    const title = encodeURIComponent(favoriteRecipe.title);
    const mine = await search(`title_kw=${title}&rpp=50`, { user: ALICE });
    expect(mine.Results.find((r) => r.RecipeID === favoriteRecipe.id)?.IsBookmark).toBe(true);
    const anonymous = await search(`title_kw=${title}&rpp=50`);
    expect(anonymous.Results.every((r) => r.IsBookmark === null)).toBe(true);
  });

  it('only the author changes a review (403), unknown review 404', async () => {
    const bobs = dataset.reviews.find((r) => r.userId === BOB.userId);
    if (!bobs) throw new Error('bob has no review');
    const body = { rid: bobs.recipeId, rating: 3, makeagain: 'yes', message: 'mine now' };
    expect((await call('PUT', `/review/${bobs.id}`, { user: ALICE, body })).status).toBe(403);
    expect((await call('DELETE', `/review/${bobs.id}`, { user: ALICE })).status).toBe(403);
    expect((await call('GET', '/review/99999999')).status).toBe(404);
  });

  it('addresses a grocery item by ItemID and by GUID (any case)', async () => {
    const item = GroceryItemSchema.parse(
      (await call('POST', '/grocerylist', { user: ALICE, json: true, body: { quantity: '1', name: 'milk' } })).json(),
    );
    const byId = await call('PUT', `/grocerylist/${item.ItemID}`, { user: ALICE, json: true, body: { quantity: '2', name: 'milk' } });
    expect(GroceryItemSchema.parse(byId.json()).DisplayQuantity).toBe('2');
    const byGuid = await call('PUT', `/grocerylist/${item.GUID.toLowerCase()}`, {
      user: ALICE,
      json: true,
      body: { quantity: '3', name: 'oat milk', department: 'Dairy' },
    });
    expect(GroceryItemSchema.parse(byGuid.json())).toMatchObject({ ItemID: item.ItemID, Name: 'oat milk', Department: 'Dairy' });
    expect((await call('DELETE', `/grocerylist/${item.GUID}`, { user: ALICE })).status).toBe(204);
    expect((await call('DELETE', `/grocerylist/${item.GUID}`, { user: ALICE })).status).toBe(404);
  });

  it('accepts the malformed forms, the /v1/ prefix and upper-case paths', async () => {
    const item = GroceryItemSchema.parse(
      (await call('POST', '/v1/grocerylist', { user: ALICE, json: true, body: { quantity: '1', name: 'eggs' } })).json(),
    );
    const updated = await call('POST', `/GroceryList/${item.ItemID}`, { user: ALICE, json: true, body: { quantity: '12', name: 'eggs' } });
    expect(GroceryItemSchema.parse(updated.json()).DisplayQuantity).toBe('12');
    expect((await call('DELETE', `/V2/GROCERYLIST${item.ItemID}`, { user: ALICE })).status).toBe(204);
    const list = GroceryListSchema.parse((await call('GET', '/grocerylist/', { user: ALICE, json: true })).json());
    expect(list.Items.some((i) => i.ItemID === item.ItemID)).toBe(false);
    expect((await call('GET', '/V1/RECIPES?rpp=1')).status).toBe(200);
  });

  it("never shows alice bob's grocery items", async () => {
    const bobsItems = dataset.groceryItems.filter((i) => i.userId === BOB.userId);
    const bobsItem = bobsItems[0];
    if (!bobsItem) throw new Error('bob has no items');
    const alices = GroceryListSchema.parse((await call('GET', '/grocerylist', { user: ALICE, json: true })).json());
    expect(alices.Items.length).toBeGreaterThan(0);
    expect(alices.Items.some((i) => bobsItems.some((b) => b.id === i.ItemID))).toBe(false);
    const body = { quantity: '1', name: 'stolen' };
    expect((await call('PUT', `/grocerylist/${bobsItem.id}`, { user: ALICE, body })).status).toBe(404);
    expect((await call('DELETE', `/grocerylist/${bobsItem.guid}`, { user: ALICE })).status).toBe(404);
    const bobs = GroceryListSchema.parse((await call('GET', '/grocerylist', { user: BOB, json: true })).json());
    expect(bobs.Items.map((i) => i.ItemID)).toEqual(bobsItems.map((i) => i.id));
  });

  it('answers the uncatalogued GET /recipe/{id}', async () => {
    const id = freeRecipe(3);
    const json = await call('GET', `/v1/Recipe/${id}`, { key: SANDBOX_API_KEYS.free, json: true });
    expect(json.status).toBe(200);
    expect(RecipeDetailSchema.parse(json.json()).Ingredients.length).toBeGreaterThanOrEqual(3);
    const xml = await call('GET', `/recipe/${id}`);
    expect(xml.text).toMatch(/^<\?xml [^>]*\?><Recipe xmlns:i=/);
    expect((await call('GET', `/recipe/${id}`, { key: null })).status).toBe(403);
    expect((await call('GET', '/recipe/99999')).status).toBe(404);
    expect((await call('GET', '/recipe/abc')).status).toBe(400);
    const wrongMethod = await call('DELETE', `/recipe/${id}`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers['allow']).toBe('GET, HEAD');
  });

  it('404 for unknown paths, 405 with Allow for a known path', async () => {
    expect((await call('GET', '/nothing/here')).status).toBe(404);
    const reply = await call('PUT', '/recipes', { json: true });
    expect(reply.status).toBe(405);
    expect(reply.headers['allow']).toBe('GET, HEAD');
  });

  it('refuses dot segments in the raw request target (400)', async () => {
    // Raw socket: fetch and undici both resolve dot segments before sending.
    const { port } = new URL(sandbox.origin);
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET /a/%2e%2e/recipes?api_key=${SANDBOX_API_KEYS.free} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toContain('.. segments');
  });
});

describe('HTTP details', () => {
  it('ETag and If-None-Match → 304', async () => {
    const first = await call('GET', '/recipes?title_kw=chicken&rpp=2', { json: true });
    const etag = first.headers['etag'];
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]{8}"$/);
    const again = await call('GET', '/recipes?title_kw=chicken&rpp=2', { json: true, headers: { 'if-none-match': String(etag) } });
    expect(again.status).toBe(304);
    expect(again.raw.length).toBe(0);
    expect(again.headers['content-type']).toBeUndefined();
    expect(again.headers['etag']).toBe(etag);
    const other = await call('GET', '/recipes?title_kw=chicken&rpp=3', { json: true, headers: { 'if-none-match': String(etag) } });
    expect(other.status).toBe(200);
    expect(other.headers['etag']).not.toBe(etag);
  });

  it('gzip for answers of 1 KB and more only', async () => {
    const gz = { 'accept-encoding': 'gzip, deflate' };
    const large = await call('GET', '/recipes?rpp=20', { json: true, headers: gz });
    expect(large.headers['content-encoding']).toBe('gzip');
    expect(large.headers['vary']).toMatch(/Accept-Encoding/);
    expect(Number(large.headers['content-length'])).toBe(large.raw.length);
    RecipeSearchResultSchema.parse(JSON.parse(gunzipSync(large.raw).toString('utf8')));
    const plain = await call('GET', '/recipes?rpp=20', { json: true });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.raw.length).toBeGreaterThanOrEqual(1024);
    const refused = await call('GET', '/recipes?rpp=20', { json: true, headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const small = await call('GET', `/review/${dataset.reviews[0]?.id ?? 1}`, { json: true, headers: gz });
    expect(small.raw.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['vary']).toBe('Accept');
  });

  it('Cache-Control by scope, HEAD without body', async () => {
    expect((await call('GET', '/recipes')).headers['cache-control']).toBe('public, max-age=60');
    expect((await call('GET', '/recipes', { user: ALICE })).headers['cache-control']).toBe('no-store');
    expect((await call('GET', '/favorites', { user: ALICE })).headers['cache-control']).toBe('no-store');
    const head = await call('HEAD', '/recipes');
    expect(head.status).toBe(200);
    expect(head.raw.length).toBe(0);
  });

  it('an unexpected exception is a 500 legacy error without a stack trace', async () => {
    class BrokenStore extends LegacyStore {
      override search(): never {
        throw new Error('boom at secret/place.ts:1');
      }
    }
    const broken = await startLegacySandbox({ store: new BrokenStore({ dataset }) });
    try {
      const res = await request(`${broken.origin}/recipes?api_key=${SANDBOX_API_KEYS.free}`, { headers: { accept: 'application/json' } });
      const text = await res.body.text();
      expect(res.statusCode).toBe(500);
      expect(JSON.parse(text)).toEqual({ Message: 'An error has occurred.' });
    } finally {
      await broken.close();
    }
  });
});

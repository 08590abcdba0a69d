/**
 * For every mapped operation, the same legacy request answered in legacy mode (straight from the
 * sandbox legacy backend) and in api2 mode (through the gateway, the mapping and the sandbox api2
 * backend) gives the same legacy response once the mapping's declared losses are applied.
 * Nothing else may differ. Every request the gateway sent to api2 validates against the published
 * OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mappingFor } from '../mappings/index.js';
import { isOperationId } from '../src/catalogue/operations.js';
import { basic, send } from './support/http.js';
import type { RawRequest, RawResponse } from './support/http.js';
import { applyLosses } from './support/losses.js';
import { startApi2ModeRig } from './support/api2-mode.js';
import type { Api2ModeRig } from './support/api2-mode.js';
import { validateApi2Request } from './support/api2-openapi.js';

const FREE = 'sandbox-free-key';
const PAID = 'sandbox-paid-key';
const ALICE = basic('alice', 'alice-pass');
const J = { accept: 'application/json' };
const USER_JSON = { ...J, authorization: ALICE, 'content-type': 'application/json' };

let rig: Api2ModeRig;
beforeAll(async () => {
  rig = await startApi2ModeRig();
});
afterAll(() => rig.close());

/** Sends to the api2-mode gateway and straight to legacy; compares after the declared losses. */
async function same(operation: string, req: RawRequest): Promise<{ viaApi2: RawResponse; legacy: RawResponse }> {
  const viaApi2 = await send(rig.gateway.origin, req);
  const legacy = await send(rig.direct.origin, req);
  const label = `${operation}: ${req.method ?? 'GET'} ${req.target}`;
  expect(rig.gateway.records.at(-1)?.mode, label).toBe('api2');
  expect(viaApi2.status, `${label}\n${viaApi2.text()}\n${legacy.text()}`).toBe(legacy.status);
  expect(viaApi2.headers['content-type'], label).toBe(legacy.headers['content-type']);
  if (legacy.body.byteLength === 0) {
    expect(viaApi2.body.byteLength, label).toBe(0);
    return { viaApi2, legacy };
  }
  if (!String(legacy.headers['content-type']).includes('json')) {
    expect(viaApi2.text(), label).toBe(legacy.text());
    return { viaApi2, legacy };
  }
  if (!isOperationId(operation)) throw new Error(operation);
  const losses = mappingFor(operation)?.losses ?? [];
  expect(applyLosses(viaApi2.json(), losses), label).toEqual(applyLosses(legacy.json(), losses));
  return { viaApi2, legacy };
}

describe('api2 mode answers like legacy', () => {
  it('recipes.search: keywords, paging, every paid filter, no results, XML', async () => {
    await same('recipes.search', { target: `/recipes?title_kw=soup&pg=1&rpp=5&api_key=${FREE}`, headers: J });
    await same('recipes.search', { target: `/recipes?any_kw=chicken&pg=3&rpp=7&api_key=${FREE}`, headers: J });
    await same('recipes.search', { target: `/recipes?api_key=${FREE}`, headers: J });
    await same('recipes.search', {
      target: `/recipes?any_kw=chicken&include_primarycat=main%20dish&cuisine=ITALIAN&include_ing=garlic&exclude_ing=peanut&photos=1&rpp=20&api_key=${PAID}`,
      headers: J,
    });
    for (const token of ['dessert', 'appetizer', 'salad', 'side%20dish', 'soup', 'marinade', 'bread']) {
      await same('recipes.search', { target: `/v1/recipes?include_primarycat=${token}&rpp=10&api_key=${PAID}`, headers: J });
    }
    await same('recipes.search', { target: `/recipes?title_kw=zzzznothing&api_key=${FREE}`, headers: J });
    await same('recipes.search', { target: `/recipes?title_kw=pie&rpp=3&api_key=${FREE}`, headers: { authorization: ALICE, ...J } });
  });

  it('favorites.list and trysoons.list read the whole list', async () => {
    await same('favorites.list', { target: `/favorites?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    await same('trysoons.list', { target: `/trysoons?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    await same('favorites.list', { target: `/favorites?api_key=${FREE}`, headers: { ...J, authorization: basic('bob', 'bob-pass') } });
  });

  it('reviews: create, read one, read all, update, delete', async () => {
    const created = await same('reviews.create', {
      method: 'POST',
      target: `/reviews?api_key=${FREE}`,
      headers: USER_JSON,
      body: JSON.stringify({ rid: 7, rating: 4, makeagain: 'yes', message: 'Nice', totaltime: 30, activetime: 10 }),
    });
    const id = (created.legacy.json() as { ReviewID: number }).ReviewID;
    await same('reviews.get', { target: `/review/${id}?api_key=${FREE}`, headers: J });
    await same('reviews.list', { target: `/reviews?rid=7&api_key=${FREE}`, headers: J });
    await same('reviews.update', {
      method: 'PUT',
      target: `/review/${id}?api_key=${FREE}`,
      headers: USER_JSON,
      body: JSON.stringify({ rid: 7, rating: 2, makeagain: 'notmake', message: 'Changed my mind' }),
    });
    await same('reviews.delete', { method: 'DELETE', target: `/review/${id}?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    await same('reviews.get', { target: `/review/${id}?api_key=${FREE}`, headers: J });
  });

  it('grocery: create, read, update and delete by ItemID and by GUID, malformed and regular forms', async () => {
    const add = (name: string) =>
      same('grocery.create', { method: 'POST', target: `/grocerylist?api_key=${FREE}`, headers: USER_JSON, body: JSON.stringify({ quantity: '2 lb', name, department: 'Produce' }) });
    const first = (await add('apples')).legacy.json() as { ItemID: number; GUID: string };
    const second = (await add('pears')).legacy.json() as { ItemID: number; GUID: string };
    await same('grocery.list', { target: `/grocerylist?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    await same('grocery.list', { target: `/grocerylist?api_key=${FREE}`, headers: { authorization: ALICE } });
    await same('grocery.update', {
      method: 'POST',
      target: `/grocerylist/${first.ItemID}?api_key=${FREE}`,
      headers: { ...J, authorization: ALICE, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'quantity=3+lb&name=green+apples&notes=crisp',
    });
    await same('grocery.update', { method: 'PUT', target: `/grocerylist/${second.GUID}?api_key=${FREE}`, headers: USER_JSON, body: JSON.stringify({ quantity: '1', name: 'pear' }) });
    await same('grocery.delete', { method: 'DELETE', target: `/grocerylist${first.ItemID}?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    await same('grocery.delete', { method: 'DELETE', target: `/grocerylist/${second.GUID}?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    await same('grocery.delete', { method: 'DELETE', target: `/grocerylist/${second.GUID}?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    await same('grocery.list', { target: `/grocerylist?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
  });

  it('sent only requests that validate against the published api2 OpenAPI document, with the key in a header', () => {
    expect(rig.api2Requests.length).toBeGreaterThan(20);
    for (const request of rig.api2Requests) {
      const [path, query = ''] = request.target.split('?');
      const errors = validateApi2Request({ method: request.method, path: path ?? '', query: Object.fromEntries(new URLSearchParams(query)), headers: request.headers, body: request.body || undefined });
      expect(errors, `${request.method} ${request.target}`).toEqual([]);
      expect(request.target).not.toContain('api_key');
      expect(request.headers['x-bigoven-api-key']).toMatch(/^sandbox-(free|paid)-key$/);
    }
  });
});

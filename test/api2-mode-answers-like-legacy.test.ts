/**
 * For every mapped operation, in JSON and in XML, the same legacy request answered in legacy mode
 * (straight from the sandbox legacy backend) and in api2 mode (through the gateway, the mapping
 * and the sandbox api2 backend) gives the same bytes, except the fields listed below as api2's
 * losses, and the same legacy HTTP details: Cache-Control, Vary, gzip when Accept-Encoding
 * negotiates it, an ETag (the same one where nothing is lost) and 304 on If-None-Match. Every
 * JSON success of api2 mode reads as its legacy record type (no null where the type is a number).
 * The losses are those each mapping declares (mappings/, shown in the capability matrix), and
 * each must name a field the legacy answer has; the comparison is on the answers' bytes with
 * those fields' values blanked out, nothing parsed or rebuilt by gateway code. Besides the cases
 * written here, every mapped operation's sandbox example (src/sandbox/behaviour.ts) is compared
 * too, so an operation mapped later is held to the same. Every request the gateway sent to api2
 * validates against the published OpenAPI document.
 */
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilities } from '../src/catalogue/movability.js';
import { operationById } from '../src/catalogue/operations.js';
import type { OperationId } from '../src/catalogue/operations.js';
import { basic, send } from './support/http.js';
import type { RawRequest, RawResponse } from './support/http.js';
import { startApi2ModeRig } from './support/api2-mode.js';
import type { Api2ModeRig } from './support/api2-mode.js';
import { validateApi2Request } from './support/api2-openapi.js';
import { SANDBOX_BEHAVIOUR } from '../src/sandbox/behaviour.js';
import { encodedBody } from './support/catalogue-examples.js';

const FREE = 'sandbox-free-key';
const PAID = 'sandbox-paid-key';
const ALICE = basic('alice', 'alice-pass');
const J = { accept: 'application/json' };
const FORM = 'application/x-www-form-urlencoded';

/** What api2 cannot supply, per mapped operation: the legacy field paths its mapping declares as losses. */
const LOSSES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  capabilities().flatMap((row) => (row.mapped ? [[row.operation, row.mapping.losses.map((loss) => loss.field)]] : [])),
);

/** The field a loss path names, e.g. `Results[].Poster.IsPremium` → `IsPremium`. */
const leafOf = (path: string): string => path.split(/\.|\[\]/).filter(Boolean).at(-1) as string;

/** Blanks out the value of every field whose name ends one of `paths`, in JSON or XML text. */
function blankLosses(text: string, paths: readonly string[], json: boolean): { text: string; blanked: number; leaves: Set<string> } {
  let blanked = 0;
  let out = text;
  const leaves = new Set<string>();
  for (const leaf of new Set(paths.map(leafOf))) {
    const pattern = json
      ? new RegExp(`"${leaf}":("(?:[^"\\\\]|\\\\.)*"|-?[0-9][0-9.E+-]*|true|false|null)`, 'g')
      : new RegExp(`<${leaf}>[^<]*</${leaf}>|<${leaf} i:nil="true" />`, 'g');
    out = out.replace(pattern, () => {
      blanked += 1;
      leaves.add(leaf);
      return json ? `"${leaf}":"(lost)"` : `<${leaf}>(lost)</${leaf}>`;
    });
  }
  return { text: out, blanked, leaves };
}

let rig: Api2ModeRig;
const covered = new Map<string, Set<'json' | 'xml'>>();
const compared = new Set<string>();
/** Per operation, the declared losses found (and blanked) in a legacy answer. */
const lossesSeen = new Map<string, Set<string>>();
beforeAll(async () => {
  rig = await startApi2ModeRig();
});
afterAll(() => rig.close());

/** The body as text, gunzipped when it came compressed (a HEAD answer has none). */
const textOf = (r: RawResponse): string => (r.headers['content-encoding'] === 'gzip' && r.body.byteLength > 0 ? gunzipSync(r.body).toString('utf8') : r.text());

/**
 * Sends to the api2-mode gateway and straight to legacy; compares status, the legacy HTTP details
 * (Content-Type, Cache-Control, Vary, Content-Encoding, whether there is an ETag, and the ETag
 * itself where nothing is lost) and the bytes outside the listed losses.
 */
async function same(operation: string, req: RawRequest): Promise<{ viaApi2: RawResponse; legacy: RawResponse }> {
  const viaApi2 = await send(rig.gateway.origin, req);
  const legacy = await send(rig.direct.origin, req);
  const label = `${operation}: ${req.method ?? 'GET'} ${req.target} ${JSON.stringify(req.headers ?? {})}`;
  expect(rig.gateway.records.at(-1)?.operation, label).toBe(operation);
  expect(rig.gateway.records.at(-1)?.mode, label).toBe('api2');
  expect(viaApi2.status, `${label}\n${viaApi2.text()}\n${legacy.text()}`).toBe(legacy.status);
  for (const header of ['content-type', 'cache-control', 'vary', 'content-encoding']) expect(viaApi2.headers[header], `${label}: ${header}`).toBe(legacy.headers[header]);
  expect(viaApi2.headers['etag'] === undefined, `${label}: an ETag on one side only`).toBe(legacy.headers['etag'] === undefined);
  const json = String(legacy.headers['content-type'] ?? '').includes('json');
  compared.add(operation);
  if (legacy.body.byteLength > 0) covered.set(operation, (covered.get(operation) ?? new Set()).add(json ? 'json' : 'xml'));
  const losses = legacy.status < 300 ? (LOSSES[operation] ?? []) : [];
  expect(viaApi2.headers['content-length'] === undefined, `${label}: a Content-Length on one side only`).toBe(legacy.headers['content-length'] === undefined);
  if (losses.length === 0) {
    expect(viaApi2.headers['etag'], `${label}: etag`).toBe(legacy.headers['etag']);
    expect(viaApi2.headers['content-length'], `${label}: content-length`).toBe(legacy.headers['content-length']);
  }
  const record = operationById(operation as OperationId).answer.record;
  if (json && viaApi2.status === 200 && record && viaApi2.body.byteLength > 0) {
    // The legacy record's types (a number is never null unless the record says so): what a typed client reads.
    const typed = record.safeParse(JSON.parse(textOf(viaApi2)));
    expect(typed.success ? [] : typed.error.issues, `${label}: a value a typed legacy client cannot read`).toEqual([]);
  }
  const a = blankLosses(textOf(viaApi2), losses, json);
  const b = blankLosses(textOf(legacy), losses, json);
  for (const leaf of b.leaves) lossesSeen.set(operation, (lossesSeen.get(operation) ?? new Set()).add(leaf));
  expect(a.blanked, `${label}: lost fields present on both sides`).toBe(b.blanked);
  expect(a.text, label).toBe(b.text);
  if (losses.length === 0) expect(viaApi2.body.equals(legacy.body), `${label}: bytes`).toBe(true);
  return { viaApi2, legacy };
}

/** A write's fields as a JSON or a form-encoded body. */
const bodyOf = (format: 'json' | 'xml', fields: Record<string, string | number>): string =>
  format === 'json' ? JSON.stringify(fields) : new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();

const idOf = (r: RawResponse, field: string): string => {
  const text = r.text();
  const found = new RegExp(`"${field}":"?([^",]+)"?|<${field}>([^<]+)</${field}>`).exec(text);
  const value = found?.[1] ?? found?.[2];
  if (!value) throw new Error(`no ${field} in ${text}`);
  return value;
};

describe('api2 mode answers like legacy, byte for byte outside the declared losses', () => {
  it('the blanking can fail: a lost field with another value on one side shows', () => {
    const one = blankLosses('{"A":1,"MakeAgain":"yes","B":"x"}', ['MakeAgain'], true).text;
    expect(one).toBe(blankLosses('{"A":1,"MakeAgain":null,"B":"x"}', ['MakeAgain'], true).text);
    expect(one).not.toBe(blankLosses('{"A":1,"MakeAgain":null,"B":"y"}', ['MakeAgain'], true).text);
    expect(blankLosses('<R><MakeAgain i:nil="true" /><B>x</B></R>', ['[].MakeAgain'], false).text).toBe(blankLosses('<R><MakeAgain>no</MakeAgain><B>x</B></R>', ['MakeAgain'], false).text);
  });

  it.each([['json', J], ['xml', {}]] as const)('recipes.search (%s): keywords, paging, every paid filter, no results, a user', async (_format, accept) => {
    const first = await same('recipes.search', { target: `/recipes?title_kw=soup&pg=1&rpp=5&api_key=${FREE}`, headers: accept });
    expect(first.viaApi2.text()).toMatch(accept === J ? /"CreationDate":"\\\/Date\(\d+\)\\\/"/ : /<CreationDate>\/Date\(\d+\)\/<\/CreationDate>/);
    await same('recipes.search', { target: `/recipes?any_kw=chicken&pg=3&rpp=7&api_key=${FREE}`, headers: accept });
    await same('recipes.search', { target: `/recipes?api_key=${FREE}`, headers: accept });
    await same('recipes.search', {
      target: `/recipes?any_kw=chicken&include_primarycat=main%20dish&cuisine=ITALIAN&include_ing=garlic&exclude_ing=peanut&photos=1&rpp=20&api_key=${PAID}`,
      headers: accept,
    });
    for (const token of ['dessert', 'appetizer', 'salad', 'side%20dish', 'soup', 'marinade', 'bread']) {
      await same('recipes.search', { target: `/v1/recipes?include_primarycat=${token}&rpp=10&api_key=${PAID}`, headers: accept });
    }
    await same('recipes.search', { target: `/recipes?title_kw=zzzznothing&api_key=${FREE}`, headers: accept });
    await same('recipes.search', { target: `/recipes?title_kw=pie&rpp=3&api_key=${FREE}`, headers: { authorization: ALICE, ...accept } });
  });

  it.each([['json', J], ['xml', {}]] as const)('favorites.list and trysoons.list (%s) read the whole list', async (_format, accept) => {
    await same('favorites.list', { target: `/favorites?api_key=${FREE}`, headers: { ...accept, authorization: ALICE } });
    await same('trysoons.list', { target: `/trysoons?api_key=${FREE}`, headers: { ...accept, authorization: ALICE } });
    await same('favorites.list', { target: `/favorites?api_key=${FREE}`, headers: { ...accept, authorization: basic('bob', 'bob-pass') } });
  });

  it.each([
    ['json', 7, J, 'application/json'],
    ['xml', 8, {}, FORM],
  ] as const)('reviews (%s): create, read one, read all, update, delete', async (format, rid, accept, contentType) => {
    const body = (fields: Record<string, string | number>): string => bodyOf(format, fields);
    const write = { ...accept, authorization: ALICE, 'content-type': contentType };
    const created = await same('reviews.create', {
      method: 'POST',
      target: `/reviews?api_key=${FREE}`,
      headers: write,
      body: body({ rid, rating: 4, makeagain: 'yes', message: 'Nice / "quoted" <b>', totaltime: 30, activetime: 10 }),
    });
    const id = idOf(created.legacy, 'ReviewID');
    await same('reviews.get', { target: `/review/${id}?api_key=${FREE}`, headers: accept });
    await same('reviews.list', { target: `/reviews?rid=${rid}&api_key=${FREE}`, headers: accept });
    await same('reviews.update', { method: 'PUT', target: `/review/${id}?api_key=${FREE}`, headers: write, body: body({ rid, rating: 2, makeagain: 'notmake', message: 'Changed my mind' }) });
    await same('reviews.delete', { method: 'DELETE', target: `/review/${id}?api_key=${FREE}`, headers: { ...accept, authorization: ALICE } });
    await same('reviews.get', { target: `/review/${id}?api_key=${FREE}`, headers: accept });
  });

  it.each([
    ['json', 31, J, 'application/json'],
    ['xml', 33, {}, FORM],
  ] as const)('reviews.update (%s) with a rid that is not the review\'s recipe: 400 to its author, 403 to another user, as legacy', async (format, rid, accept, contentType) => {
    const body = (fields: Record<string, string | number>): string => bodyOf(format, fields);
    const as = (authorization: string) => ({ ...accept, authorization, 'content-type': contentType });
    const created = await same('reviews.create', { method: 'POST', target: `/reviews?api_key=${FREE}`, headers: as(ALICE), body: body({ rid, rating: 3, makeagain: 'no', message: 'First try' }) });
    const id = idOf(created.legacy, 'ReviewID');
    const update = (authorization: string, toRid: number) => ({ method: 'PUT', target: `/review/${id}?api_key=${FREE}`, headers: as(authorization), body: body({ rid: toRid, rating: 1, makeagain: 'yes', message: 'Wrong recipe' }) });
    expect((await same('reviews.update', update(ALICE, rid + 1))).legacy.status).toBe(400);
    expect((await same('reviews.update', update(basic('bob', 'bob-pass'), rid + 1))).legacy.status).toBe(403);
    expect((await same('reviews.update', update(basic('bob', 'bob-pass'), rid))).legacy.status).toBe(403);
    // Nothing was changed by the refused updates.
    await same('reviews.list', { target: `/reviews?rid=${rid}&api_key=${FREE}`, headers: accept });
  });

  it.each([
    ['json', J, 'application/json'],
    ['xml', {}, FORM],
  ] as const)('grocery (%s): create, read, update and delete by ItemID and by GUID, malformed and regular forms', async (format, accept, contentType) => {
    const body = (fields: Record<string, string>): string => (format === 'json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString());
    const write = { ...accept, authorization: ALICE, 'content-type': contentType };
    const add = (name: string) => same('grocery.create', { method: 'POST', target: `/grocerylist?api_key=${FREE}`, headers: write, body: body({ quantity: '2 lb', name, department: 'Produce / Fruit' }) });
    const first = idOf((await add(`apples ${format}`)).legacy, 'ItemID');
    const second = idOf((await add(`pears ${format}`)).legacy, 'GUID');
    await same('grocery.list', { target: `/grocerylist?api_key=${FREE}`, headers: { ...accept, authorization: ALICE } });
    await same('grocery.update', { method: 'POST', target: `/grocerylist/${first}?api_key=${FREE}`, headers: write, body: body({ quantity: '3 lb', name: 'green apples', notes: 'crisp' }) });
    await same('grocery.update', { method: 'PUT', target: `/grocerylist/${second}?api_key=${FREE}`, headers: write, body: body({ quantity: '1', name: 'pear' }) });
    await same('grocery.delete', { method: 'DELETE', target: `/grocerylist${first}?api_key=${FREE}`, headers: { ...accept, authorization: ALICE } });
    await same('grocery.delete', { method: 'DELETE', target: `/grocerylist/${second}?api_key=${FREE}`, headers: { ...accept, authorization: ALICE } });
    await same('grocery.delete', { method: 'DELETE', target: `/grocerylist/${second}?api_key=${FREE}`, headers: { ...accept, authorization: ALICE } });
    await same('grocery.list', { target: `/grocerylist?api_key=${FREE}`, headers: { ...accept, authorization: ALICE } });
  });

  it.each([['json', J], ['xml', {}]] as const)('compresses as legacy does (%s): a large answer when Accept-Encoding negotiates gzip, never a small one or a refused gzip', async (_format, accept) => {
    const search = `/recipes?any_kw=chicken&rpp=20&api_key=${FREE}`;
    const gzipped = await same('recipes.search', { target: search, headers: { ...accept, 'accept-encoding': 'gzip, deflate, br' } });
    expect(gzipped.legacy.headers['content-encoding']).toBe('gzip');
    expect(gzipped.viaApi2.headers['vary']).toBe('Accept, Accept-Encoding');
    expect((await same('recipes.search', { target: search, headers: { ...accept, 'accept-encoding': '*' } })).legacy.headers['content-encoding']).toBe('gzip');
    expect((await same('recipes.search', { target: search, headers: { ...accept, 'accept-encoding': 'gzip;q=0, identity' } })).legacy.headers['content-encoding']).toBeUndefined();
    const list = await same('favorites.list', { target: `/favorites?api_key=${FREE}`, headers: { ...accept, authorization: ALICE, 'accept-encoding': 'gzip' } });
    expect(list.legacy.headers['content-encoding']).toBe('gzip');
    expect(list.viaApi2.headers['cache-control']).toBe('no-store');
    const small = await same('recipes.search', { target: `/recipes?title_kw=zzzznothing&api_key=${FREE}`, headers: { ...accept, 'accept-encoding': 'gzip' } });
    expect(small.legacy.headers['content-encoding']).toBeUndefined();
    // HEAD: the headers of the GET (its Content-Length too), no body.
    const head = await same('recipes.search', { method: 'HEAD', target: search, headers: { ...accept, 'accept-encoding': 'gzip' } });
    expect(head.legacy.headers['content-encoding']).toBe('gzip');
    expect(head.viaApi2.body.byteLength).toBe(0);
    await same('reviews.get', { method: 'HEAD', target: `/review/1?api_key=${FREE}`, headers: accept });
  });

  it.each([
    ['reviews.get', '/review/1?api_key=' + FREE, {}],
    ['reviews.list', `/reviews?rid=7&api_key=${FREE}`, {}],
    ['recipes.search', `/recipes?title_kw=soup&rpp=3&api_key=${FREE}`, {}],
    ['grocery.list', `/grocerylist?api_key=${FREE}`, { authorization: ALICE }],
  ] as const)('%s: each side\'s ETag, sent back in If-None-Match, gives 304 with the legacy headers; another gives the answer', async (operation, target, auth) => {
    const headers = { ...J, ...auth };
    const first = await same(operation, { target, headers });
    const viaApi2Etag = first.viaApi2.headers['etag'] as string;
    const legacyEtag = first.legacy.headers['etag'] as string;
    expect(viaApi2Etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]{8}"$/);
    const viaApi2 = await send(rig.gateway.origin, { target, headers: { ...headers, 'if-none-match': `"other", ${viaApi2Etag}` } });
    const legacy = await send(rig.direct.origin, { target, headers: { ...headers, 'if-none-match': `"other", ${legacyEtag}` } });
    expect([viaApi2.status, legacy.status]).toEqual([304, 304]);
    expect(viaApi2.body.byteLength).toBe(0);
    for (const header of ['cache-control', 'vary', 'content-type']) expect(viaApi2.headers[header], header).toBe(legacy.headers[header]);
    expect(viaApi2.headers['etag']).toBe(viaApi2Etag);
    await same(operation, { target, headers: { ...headers, 'if-none-match': 'W/"0-00000000"' } });
  });

  // A delete's example is sent once: sent again, it would delete nothing (and answers carry no body).
  const examples = Object.keys(LOSSES).flatMap((id) => (SANDBOX_BEHAVIOUR[id as OperationId].example.method === 'DELETE' ? [[id, 'json']] : [[id, 'json'], [id, 'xml']]) as [string, 'json' | 'xml'][]);
  it.each(examples)('%s: its sandbox example (%s) answers alike', async (id, format) => {
    const op = operationById(id as OperationId);
    const { method, target, body } = SANDBOX_BEHAVIOUR[op.id].example;
    const encoded = encodedBody(body, format === 'json');
    await same(id, {
      method,
      target: `${target}${target.includes('?') ? '&' : '?'}api_key=${FREE}`,
      headers: {
        ...(format === 'json' ? J : {}),
        ...(op.auth === 'user' ? { authorization: ALICE } : {}),
        ...(encoded ? { 'content-type': encoded.contentType } : {}),
      },
      ...(encoded ? { body: encoded.text } : {}),
    });
  });

  it('found every declared loss in a legacy answer (a loss names a field the legacy answer has)', () => {
    for (const [id, paths] of Object.entries(LOSSES)) expect([...(lossesSeen.get(id) ?? [])].sort(), id).toEqual([...new Set(paths.map(leafOf))].sort());
  });

  it('compared a body in JSON and in XML for every mapped operation that answers one', () => {
    const withBody = Object.keys(LOSSES).filter((id) => !id.endsWith('.delete'));
    for (const id of withBody) expect([...(covered.get(id) ?? [])].sort(), id).toEqual(['json', 'xml']);
    // Deletes answer 204 without a body: compared on status, content type and (empty) bytes.
    for (const id of Object.keys(LOSSES)) expect(compared.has(id), id).toBe(true);
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

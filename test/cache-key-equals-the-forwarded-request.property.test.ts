/**
 * Property: for generated ways of writing searches (parameter order, letter case of names,
 * percent-encoding, separators, /v1/ and trailing slash, unknown parameters, duplicates, content
 * codings, conditional and range headers, api keys, users and passwords, the client's scheme and
 * host), two requests share a page cache key if and only if the fills the gateway forwards for them
 * are the same bytes (less the api_key, which the key holds as its plan class, and
 * X-Forwarded-For); a fill never carries a conditional or range header, and never asks for a coding
 * its client did not accept. The key is made from the canonical request's facts (a HIT renders no
 * fill), the fill rendered apart (src/request/forward-request.ts): this is what ties them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API2_KEY_HEADER } from '../src/api2/port.js';
import { callApi2 } from '../src/api2/call.js';
import { createMappingMemory } from '../src/api2/review-directory.js';
import { TRAIL_HEADERS } from '../src/request/trace-context.js';
import { UpstreamError } from '../src/upstream/types.js';
import type { UpstreamRequest } from '../src/upstream/types.js';
import { canonicalOf, fillOf, keyOf, mustCanonical } from './support/canonical.js';
import { basic } from './support/http.js';
import type { RawRequest } from './support/canonical.js';

/** Accept-Encoding values and whether the client accepts gzip: the oracle, written by hand. */
const CODINGS: ReadonlyArray<readonly [string | undefined, boolean]> = [
  [undefined, false],
  ['identity', false],
  ['gzip', true],
  ['GZIP', true],
  ['*', true],
  ['*;q=0', false],
  ['gzip;q=0', false],
  ['br, gzip;q=0.1', true],
  ['br', false],
  ['deflate, identity;q=0.5', false],
  ['gzip;q=0, *', false],
  ['x-gzip', true],
];

const search = fc.record({
  title: fc.constantFrom('soup', 'Soup', 'stew', 'a b', 'a+b', 'café'),
  cuisine: fc.option(fc.constantFrom('italian', 'Italian', 'THAI'), { nil: undefined }),
  ingredients: fc.option(fc.constantFrom(['garlic', 'onion'], ['onion', 'garlic'], [' Garlic ', 'onion'], ['leek']), { nil: undefined }),
  pg: fc.option(fc.constantFrom('1', '2', '01'), { nil: undefined }),
  rpp: fc.option(fc.constantFrom('10', '20'), { nil: undefined }),
  photos: fc.option(fc.constantFrom('0', '1'), { nil: undefined }),
});

const writing = fc.record({
  order: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  upperNames: fc.boolean(),
  encodeNames: fc.boolean(),
  prefix: fc.constantFrom('', '/v1', '/V2'),
  trailingSlash: fc.boolean(),
  unknown: fc.option(fc.constantFrom('callback=evil', '_=12345', 'utm_source=x'), { nil: undefined }),
  duplicate: fc.boolean(),
  coding: fc.constantFrom(...CODINGS),
  conditional: fc.option(fc.constantFrom<Record<string, string>>({ 'if-none-match': '*' }, { 'if-none-match': '"x"' }, { 'if-modified-since': 'Mon, 01 Jan 2024 00:00:00 GMT' }, { range: 'bytes=0-10' }), { nil: undefined }),
  apiKey: fc.constantFrom('k1', 'k2'),
  json: fc.boolean(),
  user: fc.constantFrom(undefined, basic('alice', 'pw'), basic('alice', 'other'), basic('bob', 'pw')),
  scheme: fc.constantFrom('http' as const, 'https' as const),
  host: fc.constantFrom(undefined, 'api.bigoven.com', 'gateway.test'),
});

type Search = typeof search extends fc.Arbitrary<infer T> ? T : never;
type Writing = typeof writing extends fc.Arbitrary<infer T> ? T : never;

function write(s: Search, w: Writing): RawRequest & { acceptsGzip: boolean; duplicated: boolean } {
  const name = (n: string) => {
    const cased = w.upperNames ? n.toUpperCase() : n;
    return w.encodeNames ? cased.replace(/_/g, '%5F') : cased;
  };
  const pairs: string[] = [`${name('title_kw')}=${encodeURIComponent(s.title)}`, `${name('api_key')}=${w.apiKey}`];
  if (s.cuisine) pairs.push(`${name('cuisine')}=${s.cuisine}`);
  if (s.ingredients) pairs.push(`${name('include_ing')}=${s.ingredients.map(encodeURIComponent).join(',')}`);
  if (s.pg) pairs.push(`${name('pg')}=${s.pg}`);
  if (s.rpp) pairs.push(`${name('rpp')}=${s.rpp}`);
  if (s.photos) pairs.push(`${name('photos')}=${s.photos}`);
  if (w.unknown) pairs.push(w.unknown);
  if (w.duplicate) pairs.push(`title_kw=EVIL`);
  const ordered = pairs.map((pair, i) => ({ pair, rank: w.order[i % w.order.length] ?? 0 })).sort((a, b) => a.rank - b.rank).map((x) => x.pair);
  const [coding, acceptsGzip] = w.coding;
  const headers: Record<string, string> = { ...(w.conditional ?? {}) };
  if (coding !== undefined) headers['accept-encoding'] = coding;
  if (w.json) headers['accept'] = 'application/json';
  if (w.user) headers['authorization'] = w.user;
  if (w.host) headers['host'] = w.host;
  return { target: `${w.prefix}/recipes${w.trailingSlash ? '/' : ''}?${ordered.join('&')}`, headers, scheme: w.scheme, acceptsGzip, duplicated: w.duplicate };
}

/** The fill as bytes on the wire, less what the key holds otherwise (api_key: plan class) or not at all (X-Forwarded-For). */
function wire(raw: RawRequest): string {
  const fill = fillOf(raw);
  const headers = Object.entries(fill.headers).filter(([n]) => n !== 'x-forwarded-for').sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([fill.method, fill.path, fill.params, headers]);
}

/** Headers of an api2 call a page key leaves out: the api key (the key holds its plan class), the trail and User-Agent (each call's own), X-Forwarded-For. */
const NOT_KEYED_API2: ReadonlySet<string> = new Set([API2_KEY_HEADER, 'x-forwarded-for', 'user-agent', ...TRAIL_HEADERS]);

/**
 * What the api2 side forwards for a shared fill of this request: the mapped call as sent to api2
 * (caught at the upstream client, which then refuses it), and what the legacy answer is rendered
 * for (JSON or XML, the coding, with a user or not).
 */
async function api2Wire(raw: RawRequest): Promise<string> {
  const request = mustCanonical(raw);
  const sent: UpstreamRequest[] = [];
  const api2 = {
    name: 'api2',
    request: async (call: UpstreamRequest) => {
      sent.push(call);
      throw new UpstreamError('connect', 'api2', false, 'recorded, not sent');
    },
    close: async () => undefined,
  };
  const ends = { api2, mappingContext: { memory: createMappingMemory(), options: { noPhotoImageUrl: '' } } };
  if (!request.mapping) throw new Error('recipes.search has a mapping');
  await callApi2(ends, request, request.mapping, undefined, { ifNoneMatch: undefined, coding: request.encoding }, 1000);
  const calls = sent.map((call) => [call.method, call.target, Object.entries(call.headers).filter(([name]) => !NOT_KEYED_API2.has(name)).sort(([a], [b]) => a.localeCompare(b))]);
  return JSON.stringify([calls, request.json, request.encoding, request.user !== null]);
}

/** The search written as `w1` with one fact of the search or of its writing taken from the second (random pairs seldom share a page). */
function neighboursOf(s1: Search, w1: Writing, s2: Search, w2: Writing): ReturnType<typeof write>[] {
  return [
    ...(Object.keys(w1) as (keyof Writing)[]).filter((field) => field !== 'duplicate').map((field) => write(s1, { ...w1, [field]: w2[field], duplicate: false })),
    ...(Object.keys(s1) as (keyof Search)[]).map((field) => write({ ...s1, [field]: s2[field] }, { ...w1, duplicate: false })),
  ];
}

describe('page cache key and forwarded request', () => {
  it('share a key exactly when they forward the same request', () => {
    fc.assert(
      fc.property(search, writing, search, writing, (s1, w1, s2, w2) => {
        const a = write(s1, w1);
        const b = write(s2, w2);
        for (const r of [a, b]) {
          const canonical = canonicalOf(r);
          expect(canonical.ok).toBe(!r.duplicated);
        }
        if (a.duplicated || b.duplicated) return;
        expect(keyOf(a) === keyOf(b)).toBe(wire(a) === wire(b));
        // The same search written another way is the same page.
        const same = write(s1, { ...w2, coding: w1.coding, json: w1.json, user: w1.user, scheme: w1.scheme, host: w1.host, duplicate: false });
        expect(keyOf(same)).toBe(keyOf(a));
        // Neighbours: one fact of the search or of its writing changed at a time (random pairs seldom share a page).
        const base = write(s1, { ...w1, duplicate: false });
        for (const near of neighboursOf(s1, w1, s2, w2)) expect(keyOf(near) === keyOf(base), `${near.target} ${JSON.stringify(near.headers)}`).toBe(wire(near) === wire(base));
      }),
      { numRuns: 400, seed: 1123 },
    );
  });

  // The api2 side is keyed as the legacy fill: never coarser than its mapped call (finer where the
  // legacy fill carries what api2 is not sent, X-Forwarded-Proto and -Host: those pages are not shared).
  it('on the api2 side, share a key only when the mapped api2 call and its answer terms are the same', async () => {
    await fc.assert(
      fc.asyncProperty(search, writing, search, writing, async (s1, w1, s2, w2) => {
        const base = write(s1, { ...w1, duplicate: false });
        const [baseKey, baseCall] = [keyOf(base, { side: 'api2' }), await api2Wire(base)];
        for (const near of [base, ...neighboursOf(s1, w1, s2, w2)]) {
          if (keyOf(near, { side: 'api2' }) === baseKey) expect(await api2Wire(near), `${near.target} ${JSON.stringify(near.headers)}`).toBe(baseCall);
        }
      }),
      { numRuns: 40, seed: 3119 },
    );
  });

  it('never sends a conditional or range header on a fill, nor asks for a coding the client did not accept', () => {
    fc.assert(
      fc.property(search, writing, (s, w) => {
        const raw = write(s, { ...w, duplicate: false });
        const fill = fillOf(raw);
        for (const name of ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'range']) expect(fill.headers[name]).toBeUndefined();
        expect(fill.headers['accept-encoding']).toBe(raw.acceptsGzip ? 'gzip' : 'identity');
      }),
      { numRuns: 300, seed: 2311 },
    );
  });
});

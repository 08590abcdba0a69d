/**
 * Issue 47: a repeated request skips routing, parsing, checking and keying (the memos of
 * src/catalogue/route-table.ts, src/gateway/arrival.ts, src/request/canonical-request.ts and
 * src/cache/page-key.ts). Property:
 * for a stream of generated requests that repeat and differ in every fact the canonical request,
 * its page key or its answer depends on (query text, parameter values and case, duplicates,
 * unknown parameters, api keys, users and passwords, path form, method, Accept, Accept-Encoding,
 * Content-Type, the client's scheme and host, the cache side, plan and user hash, the unknown-
 * parameter rule), each request's route match, canonical request and page key are exactly those
 * built without any memo; and the memos are used (repeated requests share one checked entry). A second test
 * sends a stream of distinct requests and holds the memos' memory to a fixed bound.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageKey } from '../src/cache/page-key.js';
import { renderForwardTarget } from '../src/request/forward-request.js';
import type { PageKeyContext } from '../src/cache/page-key.js';
import { CATALOGUE_ROUTES } from '../src/catalogue/route-table.js';
import { arrive, rememberedQueries } from '../src/gateway/arrival.js';
import type { Arrival } from '../src/gateway/arrival.js';
import { normaliseTarget } from '../src/http/target.js';
import { canonicalRequest } from '../src/request/canonical-request.js';
import type { CanonicalRequest } from '../src/request/canonical-request.js';
import type { Refusal, UnknownParameters } from '../src/request/canonicalise.js';
import { credentialsOf } from '../src/request/credentials.js';
import { basic } from './support/http.js';

const rules = { routes: CATALOGUE_ROUTES, trusted: () => false, routeMode: () => 'legacy' as const };

interface Raw {
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly tls: boolean;
}

function arrived(raw: Raw): Arrival {
  const target = normaliseTarget(raw.target);
  return arrive({ method: raw.method, target, headers: raw.headers, peer: { address: '10.0.0.7', tls: raw.tls }, absoluteForm: false }, rules, 0);
}

/** The same arrival with pairs and credentials of its own (not frozen): nothing is remembered for it. */
function unremembered(arrival: Arrival): Arrival {
  const pairs = arrival.pairs.map((pair) => ({ ...pair }));
  return { ...arrival, pairs, credentials: credentialsOf(pairs, arrival.headers['authorization']) };
}

/**
 * The same arrival with frozen pairs shared by every request of the same query text whatever its
 * other facts (the arrival's own memo keys them by the Authorization header too): the canonical
 * request's memo is then asked for requests that differ only in the facts its own key holds.
 */
const pairsByQuery = new Map<string, Arrival['pairs']>();
function sharingPairs(arrival: Arrival): Arrival {
  let pairs = pairsByQuery.get(arrival.query);
  if (!pairs) pairsByQuery.set(arrival.query, (pairs = Object.freeze(arrival.pairs.map((pair) => Object.freeze({ ...pair })))));
  return { ...arrival, pairs, credentials: credentialsOf(pairs, arrival.headers['authorization']) };
}

/** Every fact a generated request varies, and the values each takes. */
const FACTS = {
  method: ['GET', 'HEAD'],
  prefix: ['', '/v1', '/V1'],
  path: ['/recipes', '/recipes/', '/Recipes'],
  title: ['soup', 'Soup', 'a+b', 'a%20b', 'caf%C3%A9', '%ZZ', ''],
  titleName: ['title_kw', 'TITLE_KW', 'title%5Fkw'],
  apiKey: ['k1', 'k2', 'k1&api_key=k2', ''],
  extra: ['', '&pg=2', '&pg=02', '&rpp=10', '&pg=2&rpp=10', '&cuisine=thai', '&callback=x', '&title_kw=EVIL', '&photos=1', '&pg=0'],
  user: [undefined, basic('alice', 'pw'), basic('alice', 'other'), basic('bob', 'pw'), 'Bearer t'],
  accept: [undefined, 'application/json', 'application/xml', 'text/html'],
  coding: [undefined, 'gzip', 'identity', 'gzip;q=0', '*'],
  contentType: [undefined, 'application/json', 'application/x-www-form-urlencoded'],
  host: [undefined, 'api.bigoven.com', 'gateway.test'],
  tls: [false, true],
  side: ['legacy', 'api2', 'api2@1'],
  plan: ['any', 'paid'],
  userHash: [null, '0123456789abcdef', '0123456789abcdee'],
  unknown: ['drop', 'reject'],
  /** Pairs shared by every request of the query text (see sharingPairs), or the arrival's own. */
  sharedPairs: [false, true],
} as const;
type Facts = { -readonly [F in keyof typeof FACTS]: (typeof FACTS)[F][number] };
const NAMES = Object.keys(FACTS) as Array<keyof typeof FACTS>;

type Generated = Raw & { readonly keyContext: PageKeyContext; readonly unknown: UnknownParameters; readonly sharedPairs: boolean };

function rawOf(r: Facts): Generated {
  const headers: Record<string, string> = {};
  if (r.user) headers['authorization'] = r.user;
  if (r.accept) headers['accept'] = r.accept;
  if (r.coding) headers['accept-encoding'] = r.coding;
  if (r.contentType) headers['content-type'] = r.contentType;
  if (r.host) headers['host'] = r.host;
  return { method: r.method, target: `${r.prefix}${r.path}?${r.titleName}=${r.title}&api_key=${r.apiKey}${r.extra}`, headers, tls: r.tls, keyContext: { side: r.side, plan: r.plan, userHash: r.userHash }, unknown: r.unknown, sharedPairs: r.sharedPairs };
}

/** A walk: a first request, then each next one differing from the one before in one fact (or none: a repeat). */
const walk = fc
  .tuple(
    fc.record(Object.fromEntries(NAMES.map((name) => [name, fc.constantFrom(...FACTS[name])])) as { [F in keyof Facts]: fc.Arbitrary<Facts[F]> }),
    fc.array(fc.tuple(fc.nat(NAMES.length), fc.nat(9)), { minLength: 20, maxLength: 60 }),
  )
  .map(([first, steps]) => {
    const requests: Generated[] = [rawOf(first)];
    let facts: Facts = first;
    for (const [field, value] of steps) {
      const name = NAMES[field];
      if (name !== undefined) facts = { ...facts, [name]: FACTS[name][value % FACTS[name].length] };
      requests.push(rawOf(facts));
    }
    return requests;
  });

/** What a test compares of a canonical request: all of it (the trail too: the same arrival). */
const facts = (request: CanonicalRequest | Refusal) => ({ ...request });

describe('a repeated request is answered from the memos exactly as without them', () => {
  it('canonical request, page key and forward target equal those built without any memo, over a stream of repeating, differing requests', () => {
    const sharedEntries = new Map<object, string>();
    let repeats = 0;
    fc.assert(
      fc.property(walk, (requests) => {
        // Each request twice, the second time after others: the memo is asked for entries others made.
        for (const request of [...requests, ...requests.slice().reverse()]) {
          const { keyContext, unknown } = request;
          const arrival = request.sharedPairs ? sharingPairs(arrived(request)) : arrived(request);
          const match = arrival.match;
          expect(match, request.target).not.toBeNull();
          // The route table's remembered match is the one worked out afresh.
          expect(match).toEqual(CATALOGUE_ROUTES.matchAfresh(arrival.method, arrival.path));
          const remembered = canonicalRequest(arrival, match!, null, unknown);
          const plain = canonicalRequest(unremembered(arrival), match!, null, unknown);
          expect(facts(remembered)).toEqual(facts(plain));
          expect(remembered.ok).toBe(plain.ok);
          if (!remembered.ok || !plain.ok) continue;
          const keyOf = (r: CanonicalRequest, c: PageKeyContext) => pageKey(r, c);
          expect(keyOf(remembered as CanonicalRequest, keyContext)).toBe(keyOf(plain as CanonicalRequest, keyContext));
          // The forward request's target (remembered per parameters, method and path form) is the one rendered afresh.
          expect(renderForwardTarget(remembered as CanonicalRequest)).toEqual(renderForwardTarget(plain as CanonicalRequest));
          // An entry shared by two requests is shared by equal canonical facts only.
          const owner = (remembered as CanonicalRequest).params;
          const seen = JSON.stringify([(plain as CanonicalRequest).params, (plain as CanonicalRequest).values, (plain as CanonicalRequest).apiKey, (plain as CanonicalRequest).user, (plain as CanonicalRequest).authorization]);
          const before = sharedEntries.get(owner);
          if (before !== undefined) {
            repeats += 1;
            expect(seen).toBe(before);
          } else sharedEntries.set(owner, seen);
        }
      }),
      { numRuns: 60, seed: 47 },
    );
    // The memo was used: repeated requests were handed a remembered entry.
    expect(repeats).toBeGreaterThan(300);
  });
});

describe('the route table remembers a match per method and path', () => {
  it('answers every method and path form as worked out afresh, asked in any order', () => {
    const paths = ['/favorites', '/Favorites/', '/v2/favorites', '/grocerylist', '/grocerylist/7', '/grocerylist7', '/review/12', '/REVIEW/12/', '/review/13', '/reviews', '/recipes', '/nowhere'];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE'), fc.constantFrom(...paths)), { minLength: 10, maxLength: 80 }), (asked) => {
        for (const [method, path] of asked) expect(CATALOGUE_ROUTES.match(method, path)).toEqual(CATALOGUE_ROUTES.matchAfresh(method, path));
      }),
      { numRuns: 100, seed: 47 },
    );
  });
});

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** Everything the memos may hold at their bound (1,024 queries, 4 checks each, 32 keys per check) of requests this size, with room to spare; an unbounded memo of 100,000 such requests would hold more than 50 MB. */
const MAX_GROWTH_BYTES = 12 * 1024 * 1024;

describe('the memos stay bounded', () => {
  it('a stream of 100,000 distinct requests leaves the heap within a fixed bound, and at most 1,024 queries remembered of each kind (with and without Authorization)', () => {
    const keyContext: PageKeyContext = { side: 'legacy', plan: 'any', userHash: null };
    const send = (i: number) => {
      const arrival = arrived({ method: 'GET', target: `/recipes?title_kw=dish-${i}-${'x'.repeat(150)}&api_key=client-${i}&pg=${i % 7 + 1}`, headers: { accept: 'application/json' }, tls: false });
      const request = canonicalRequest(arrival, arrival.match!, null, 'drop');
      if (!request.ok) throw new Error(request.message);
      return pageKey(request as CanonicalRequest, keyContext);
    };
    for (let i = 0; i < 5_000; i++) send(i);
    const before = heapAfterGc();
    let most = 0;
    for (let i = 5_000; i < 105_000; i++) {
      send(i);
      most = Math.max(most, rememberedQueries());
    }
    const growth = heapAfterGc() - before;
    expect(growth).toBeLessThan(MAX_GROWTH_BYTES);
    // Full (1,024 queries without Authorization), never more than both memos' bounds.
    expect(most).toBeGreaterThanOrEqual(1024);
    expect(most).toBeLessThanOrEqual(2048);
  });
});

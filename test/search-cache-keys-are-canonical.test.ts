/**
 * One search, however it is written, is one cache key; different searches, plans, users, modes and
 * formats are different keys; no key ever holds a secret.
 */
import { describe, expect, it } from 'vitest';
import { searchCacheKey } from '../src/cache/search-key.js';
import type { SearchKeyContext } from '../src/cache/search-key.js';
import { RouteTable } from '../src/catalogue/route-table.js';
import { normaliseTarget } from '../src/http/target.js';
import { checkLegacyRequest } from '../src/legacy/request-check.js';

const routes = new RouteTable();
const context: SearchKeyContext = { mode: 'legacy', json: true, gzip: false, plan: 'any', userHash: null };

/** The key of a raw request target, through the gateway's own normalisation and checks. */
function keyOf(target: string, ctx: SearchKeyContext = context): string {
  const normal = normaliseTarget(target);
  if (!normal.ok) throw new Error(normal.reason);
  const match = routes.match('GET', normal.path);
  if (!match) throw new Error(`no route for ${target}`);
  const checked = checkLegacyRequest(match, { query: normal.query, contentType: undefined, authorization: undefined, body: null });
  if (!checked.ok) throw new Error(checked.message);
  return searchCacheKey(checked.values, ctx);
}

const base = keyOf('/recipes?title_kw=soup&cuisine=Italian&include_ing=garlic,onion&pg=1&rpp=10&api_key=k');

describe('search cache keys', () => {
  it.each([
    ['parameter order', '/recipes?api_key=k&rpp=10&pg=1&include_ing=garlic,onion&cuisine=Italian&title_kw=soup'],
    ['repeated separators', '/recipes?title_kw=soup&&cuisine=Italian&include_ing=garlic,,onion,&pg=1&rpp=10&api_key=k'],
    ['percent-encoding', '/recipes?title%5Fkw=so%75p&cuisine=It%61lian&include_ing=garlic%2Conion&pg=1&rpp=10&api_key=k'],
    ['case of cuisine', '/recipes?title_kw=soup&cuisine=ITALIAN&include_ing=garlic,onion&pg=1&rpp=10&api_key=k'],
    ['ingredient order and spacing', '/recipes?title_kw=soup&cuisine=Italian&include_ing=%20onion%20,%20garlic&pg=1&rpp=10&api_key=k'],
    ['the /v1/ prefix, path case and trailing slash', '/V1/Recipes/?title_kw=soup&cuisine=Italian&include_ing=garlic,onion&pg=1&rpp=10&api_key=k'],
    ['default pg and rpp', '/recipes?title_kw=soup&cuisine=Italian&include_ing=garlic,onion&api_key=k'],
    ['another api key', '/recipes?title_kw=soup&cuisine=Italian&include_ing=garlic,onion&api_key=somebody-else'],
    ['photos=0, which restricts nothing', '/recipes?title_kw=soup&cuisine=Italian&include_ing=garlic,onion&photos=0&api_key=k'],
  ])('%s gives the same key', (_variation, target) => {
    expect(keyOf(target)).toBe(base);
  });

  it.each([
    ['another keyword', '/recipes?title_kw=stew&cuisine=Italian&include_ing=garlic,onion&api_key=k'],
    ['another page', '/recipes?title_kw=soup&cuisine=Italian&include_ing=garlic,onion&pg=2&api_key=k'],
    ['an ingredient moved to the excluded list', '/recipes?title_kw=soup&cuisine=Italian&include_ing=garlic&exclude_ing=onion&api_key=k'],
    ['photos=1', '/recipes?title_kw=soup&cuisine=Italian&include_ing=garlic,onion&photos=1&api_key=k'],
    ['the keyword in any_kw instead of title_kw', '/recipes?any_kw=soup&cuisine=Italian&include_ing=garlic,onion&api_key=k'],
  ])('%s gives another key', (_variation, target) => {
    expect(keyOf(target)).not.toBe(base);
  });

  it('separates plans, users, modes, formats and encodings', () => {
    const target = '/recipes?title_kw=soup&api_key=k';
    const keys = new Set([
      keyOf(target),
      keyOf(target, { ...context, plan: 'paid' }),
      keyOf(target, { ...context, userHash: 'aaaa' }),
      keyOf(target, { ...context, userHash: 'bbbb' }),
      keyOf(target, { ...context, mode: 'api2' }),
      keyOf(target, { ...context, json: false }),
      keyOf(target, { ...context, gzip: true }),
    ]);
    expect(keys.size).toBe(7);
  });

  it('cannot be made to collide by values that contain separators', () => {
    const a = keyOf('/recipes?title_kw=a%22,%22b&any_kw=c&api_key=k');
    const b = keyOf('/recipes?title_kw=a&any_kw=b%22,%22c&api_key=k');
    expect(a).not.toBe(b);
  });

  it('never holds the api key', () => {
    expect(keyOf('/recipes?title_kw=soup&api_key=my-very-secret-key')).not.toContain('my-very-secret-key');
  });
});

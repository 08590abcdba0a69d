/**
 * One search, however it is written, is one cache key; different searches, plans, users, modes and
 * formats are different keys; no key ever holds a secret.
 */
import { describe, expect, it } from 'vitest';
import { keyOf as keyOfRequest } from './support/canonical.js';
import type { PageKeyContext } from '../src/cache/page-key.js';

const JSON_ACCEPT = { accept: 'application/json' };

/** The key of a raw request target, through the gateway's own normalisation, canonical form and fill. */
function keyOf(target: string, context: Partial<PageKeyContext> = {}, headers: Record<string, string> = JSON_ACCEPT): string {
  return keyOfRequest({ target, headers }, context);
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

  it('separates plans, users, sides, formats and encodings', () => {
    const target = '/recipes?title_kw=soup&api_key=k';
    const keys = new Set([
      keyOf(target),
      keyOf(target, { plan: 'paid' }),
      keyOf(target, { userHash: 'aaaa' }),
      keyOf(target, { userHash: 'bbbb' }),
      keyOf(target, { side: 'api2' }),
      keyOf(target, {}, {}),
      keyOf(target, {}, { ...JSON_ACCEPT, 'accept-encoding': 'gzip' }),
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

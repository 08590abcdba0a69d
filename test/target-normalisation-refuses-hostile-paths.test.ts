import { describe, expect, it } from 'vitest';
import { normaliseTarget, originFormOf } from '../src/http/target.js';

describe('request target normalisation', () => {
  it.each([
    '/review/../grocerylist',
    '/review/..',
    '/./recipes',
    '/review/%2e%2e/grocerylist',
    '/review/%2E%2E/grocerylist',
    '/review/.%2e/grocerylist',
    '/review/%2e./grocerylist',
    '/review/%2e',
    '/recipes%00',
    '/recipes\u0000',
    '/review/1%2F..%2Fadmin',
    '/review/1%5C..',
    '/review\\..\\admin',
    '/review/%zz',
    'recipes',
    '/recipes#frag',
  ])('refuses %j with 400', (target) => {
    const result = normaliseTarget(target);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.status).toBe(400);
  });

  it('refuses an over-long target with 414', () => {
    const result = normaliseTarget(`/recipes?title_kw=${'a'.repeat(100)}`, 64);
    expect(result).toMatchObject({ ok: false, status: 414 });
  });

  it('collapses repeated slashes, so //host/x stays a path on the configured upstream', () => {
    expect(normaliseTarget('//evil.example/x')).toEqual({ ok: true, path: '/evil.example/x', query: '' });
    expect(normaliseTarget('/v1//recipes///')).toEqual({ ok: true, path: '/v1/recipes/', query: '' });
  });

  it('decodes escaped unreserved characters and keeps other escapes upper-cased', () => {
    expect(normaliseTarget('/%72ecipes/a%2cb%c3%a9')).toEqual({ ok: true, path: '/recipes/a%2Cb%C3%A9', query: '' });
  });

  it('keeps the query string byte for byte', () => {
    const query = 'title_kw=a%2E%2E&include_ing=x,%20y&api_key=k&x=..%2F';
    expect(normaliseTarget(`/recipes?${query}`)).toEqual({ ok: true, path: '/recipes', query });
  });

  it('takes the origin form of a URL without the URL constructor', () => {
    expect(originFormOf('http://h:1/a/b?c=d')).toBe('/a/b?c=d');
    expect(originFormOf('http://h:1?c=d')).toBe('/?c=d');
    expect(originFormOf('http://h:1')).toBe('/');
  });
});

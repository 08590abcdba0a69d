/**
 * A cache HIT's answer is the stored page's shared headers plus the deprecation signal and
 * `X-Request-Id` (withDeprecationSignal, withHeader): the page's headers, and the answer a HIT
 * starts from, serve every later hit, so the request's own headers go on a copy.
 */
import { describe, expect, it } from 'vitest';
import { answer, withHeader } from '../src/http/answer.js';
import { fromStored } from '../src/pipeline/stored-answer.js';
import { withDeprecationSignal } from '../src/pipeline/deprecation-signal.js';

describe('an answer with one more header over shared headers', () => {
  it('is a copy: the shared headers are left as they were', () => {
    const shared = { 'content-type': 'application/json', 'x-cache': 'HIT', 'content-length': '12' };
    const page = answer(200, shared, 'x'.repeat(12), { sharedHeaders: true });
    const served = withHeader(page, 'x-request-id', 'one');
    expect(served.headers).toEqual({ ...shared, 'x-request-id': 'one' });
    expect(Object.keys(served.headers)).toEqual(['content-type', 'x-cache', 'content-length', 'x-request-id']);
    expect(served.sharedHeaders).toBe(false);
    expect(shared).not.toHaveProperty('x-request-id');
  });

  it('two hits of one stored page: each has its own request id, the stored page none', () => {
    const stored = { status: 200, headers: { etag: '"v1"', 'content-type': 'text/plain' }, setCookie: [], body: new TextEncoder().encode('page') };
    const first = withHeader(fromStored(stored, 'HIT', { ifNoneMatch: undefined, ifModifiedSince: undefined }), 'x-request-id', 'r-1');
    const second = withHeader(fromStored(stored, 'HIT', { ifNoneMatch: undefined, ifModifiedSince: undefined }), 'x-request-id', 'r-2');
    expect(first.headers).toEqual({ etag: '"v1"', 'content-type': 'text/plain', 'x-cache': 'HIT', 'content-length': '4', 'x-request-id': 'r-1' });
    expect(second.headers['x-request-id']).toBe('r-2');
    expect(stored.headers).toEqual({ etag: '"v1"', 'content-type': 'text/plain' });
  });

  it('the deprecation signal and the request id over two hits: each hit gets its own, the served page and its headers none', () => {
    const stored = { status: 200, headers: { etag: '"v1"', 'content-type': 'text/plain' }, setCookie: [], body: new TextEncoder().encode('page') };
    const signal = { told: 'deprecation+sunset' as const, fields: { deprecation: '@1796083200', sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' }, link: '<https://developer.example.com/legacy>; rel="deprecation"' };
    const hit = () => fromStored(stored, 'HIT', { ifNoneMatch: undefined, ifModifiedSince: undefined });
    const page = hit();
    const pageHeaders = { ...page.headers };
    const first = withHeader(withDeprecationSignal(page, signal), 'x-request-id', 'r-1');
    const second = withHeader(withDeprecationSignal(hit(), signal), 'x-request-id', 'r-2');
    expect(first.headers).toEqual({ ...pageHeaders, ...signal.fields, link: signal.link, 'x-request-id': 'r-1' });
    expect(second.headers['x-request-id']).toBe('r-2');
    expect(first.headers['x-request-id']).toBe('r-1');
    // The answer a HIT starts from (remembered per stored page and outcome) is left as it was.
    expect(page.sharedHeaders).toBe(true);
    expect(page.headers).toEqual(pageHeaders);
    expect(stored.headers).toEqual({ etag: '"v1"', 'content-type': 'text/plain' });
  });

  it('answers with repeated headers (Set-Cookie) keep them; others carry none', () => {
    const made = answer(200, { 'content-type': 'text/plain' }, 'body 0', { repeated: [['set-cookie', 's=0']] });
    expect(made).toMatchObject({ status: 200, bytes: 6, repeated: [['set-cookie', 's=0']] });
    expect(withHeader({ ...made, sharedHeaders: true }, 'x-request-id', 'r').repeated).toEqual([['set-cookie', 's=0']]);
    expect(answer(200, {}, 'x')).not.toHaveProperty('repeated');
  });
});

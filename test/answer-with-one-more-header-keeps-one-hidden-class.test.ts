/**
 * A cache HIT's answer is the stored page's shared headers plus `X-Request-Id` (withHeader).
 * Made by spreading the shared headers and adding the member, every copy got a hidden class of
 * its own in V8, a new one per request: with the usage log on, cache hits promoted 140-550 KB per
 * scavenge (bench:gc) of classes no longer used. The copies must share one hidden class.
 */
import { describe, expect, it } from 'vitest';
import { answer, withHeader } from '../src/http/answer.js';
import { fromStored } from '../src/pipeline/stored-answer.js';
import { hiddenClassesOtherThan } from './support/hidden-class.js';

describe('an answer with one more header over shared headers', () => {
  it('is a copy: the shared headers are left as they were', () => {
    const shared = { 'content-type': 'application/json', 'x-cache': 'HIT', 'content-length': '12' };
    const page = answer(200, shared, 'x'.repeat(12), { sharedHeaders: true });
    const served = withHeader(page, 'x-request-id', 'one');
    expect(served.headers).toEqual({ ...shared, 'x-request-id': 'one' });
    expect(Object.keys(served.headers)).toEqual(['content-type', 'x-cache', 'content-length', 'x-request-id']);
    expect(shared).not.toHaveProperty('x-request-id');
  });

  it('has the same hidden class request after request', () => {
    // Built as the page cache builds its served headers (stored-answer.ts): a spread, then one more member.
    const stored: Record<string, string> = {};
    for (const [name, value] of [['content-type', 'application/json; charset=utf-8'], ['vary', 'Accept'], ['etag', '"v1"']] as const) stored[name] = value;
    const shared: Record<string, string> = { ...stored, 'x-cache': 'HIT' };
    shared['content-length'] = '12279';
    const page = answer(200, shared, null, { sharedHeaders: true });
    const served = Array.from({ length: 200 }, (_, i) => withHeader(page, 'x-request-id', `r-${i}`).headers);
    expect(hiddenClassesOtherThan(served[0]!, served.slice(1))).toBe(0);
  });

  it('a stored page served without a body (its headers and X-Cache): one hidden class', () => {
    const stored = { status: 204, headers: { etag: '"v1"', 'cache-control': 'max-age=60' }, setCookie: [], body: new Uint8Array(0) };
    const served = Array.from({ length: 100 }, () => fromStored(stored, 'HIT', { ifNoneMatch: undefined, ifModifiedSince: undefined }).headers);
    expect(served[0]).toEqual({ etag: '"v1"', 'cache-control': 'max-age=60', 'x-cache': 'HIT' });
    expect(hiddenClassesOtherThan(served[0]!, served.slice(1))).toBe(0);
  });

  it('answers with repeated headers (Set-Cookie): one hidden class', () => {
    const made = Array.from({ length: 100 }, (_, i) => answer(200, { 'content-type': 'text/plain' }, `body ${i}`, { repeated: [['set-cookie', `s=${i}`]] }));
    expect(made[0]).toMatchObject({ status: 200, bytes: 6, repeated: [['set-cookie', 's=0']] });
    expect(hiddenClassesOtherThan(made[0]!, made.slice(1))).toBe(0);
  });
});

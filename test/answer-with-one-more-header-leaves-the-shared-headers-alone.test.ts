/**
 * A cache HIT's answer is the stored page's shared headers plus `X-Request-Id` (withHeader): the
 * page's headers serve every later hit, so the request's own header goes on a copy.
 */
import { describe, expect, it } from 'vitest';
import { answer, withHeader } from '../src/http/answer.js';
import { fromStored } from '../src/pipeline/stored-answer.js';

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

  it('answers with repeated headers (Set-Cookie) keep them; others carry none', () => {
    const made = answer(200, { 'content-type': 'text/plain' }, 'body 0', { repeated: [['set-cookie', 's=0']] });
    expect(made).toMatchObject({ status: 200, bytes: 6, repeated: [['set-cookie', 's=0']] });
    expect(withHeader({ ...made, sharedHeaders: true }, 'x-request-id', 'r').repeated).toEqual([['set-cookie', 's=0']]);
    expect(answer(200, {}, 'x')).not.toHaveProperty('repeated');
  });
});

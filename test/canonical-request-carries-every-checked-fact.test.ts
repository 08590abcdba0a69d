/**
 * The canonical request is the checked parameters (canonicalise) plus the request's facts, built
 * as one literal (src/request/canonical-request.ts): nothing canonicalise found may be left behind
 * on the way, or a later stage (key, forward, api2 call, record) would read it as absent.
 */
import { describe, expect, it } from 'vitest';
import { RouteTable } from '../src/catalogue/route-table.js';
import { normaliseTarget } from '../src/http/target.js';
import { canonicalise } from '../src/request/canonicalise.js';
import { credentialsOf } from '../src/request/credentials.js';
import { readPairs } from '../src/request/pairs.js';
import { canonicalOf } from './support/canonical.js';
import type { RawRequest } from './support/canonical.js';

const BASIC = `Basic ${Buffer.from('alice:alice-pass').toString('base64')}`;
const REQUESTS: ReadonlyArray<RawRequest & { method: string }> = [
  { method: 'GET', target: '/recipes?title_kw=soup&pg=2&rpp=10&cuisine=Italian&api_key=k', headers: { accept: 'application/json' } },
  { method: 'GET', target: '/grocerylist?api_key=k', headers: { authorization: BASIC } },
  { method: 'POST', target: '/reviews?api_key=k', headers: { authorization: BASIC, 'content-type': 'application/json' }, body: '{"rid":1,"rating":5,"makeagain":"yes","message":"hi"}' },
];

describe('the canonical request', () => {
  it.each(REQUESTS)('holds every fact canonicalise found, unchanged: $method $target', (raw) => {
    const { method } = raw;
    const headers = raw.headers ?? {};
    const target = normaliseTarget(raw.target);
    if (!target.ok) throw new Error(target.reason);
    const match = new RouteTable().match(method, target.path)!;
    const pairs = readPairs(target.query);
    const body = raw.body === undefined ? null : new TextEncoder().encode(raw.body);
    const checked = canonicalise(match, { query: pairs, credentials: credentialsOf(pairs, headers['authorization']), contentType: headers['content-type'], body });
    expect(checked.ok).toBe(true);
    const request = canonicalOf(raw) as unknown as Record<string, unknown>;
    for (const [name, value] of Object.entries(checked)) expect(request[name], name).toStrictEqual(value);
  });
});

/**
 * Each rule of the legacy document broken once: the gateway answers exactly what the legacy
 * backend answers (status, content type, body), and for the rules it can judge itself (presence
 * of credentials, parameter rules) it answers without calling the backend at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from './support/http.js';
import { startParityPair } from './support/parity.js';
import type { ParityPair } from './support/parity.js';

const FREE = 'sandbox-free-key';
const PAID = 'sandbox-paid-key';
const ALICE = basic('alice', 'alice-pass');
const J = { accept: 'application/json' };
const JSON_BODY = { ...J, authorization: ALICE, 'content-type': 'application/json' };
const review = (fields: Record<string, unknown>) => JSON.stringify({ rid: 3, rating: 4, makeagain: 'yes', message: 'ok', ...fields });

let pair: ParityPair;
beforeAll(async () => {
  pair = await startParityPair();
});
afterAll(() => pair.close());

interface Case {
  readonly rule: string;
  readonly method?: string;
  readonly target: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly status: number;
  /** Judged by the gateway itself, without calling the backend. */
  readonly byGateway: boolean;
  readonly mentions?: string;
}

const cases: Case[] = [
  { rule: 'api_key on every call', target: '/recipes?title_kw=soup', headers: J, status: 403, byGateway: true },
  { rule: 'api_key must be known', target: '/recipes?api_key=nope', headers: J, status: 403, byGateway: false },
  { rule: 'user auth on user-scoped operations', target: `/grocerylist?api_key=${FREE}`, headers: J, status: 403, byGateway: true },
  { rule: 'user credentials must be right', target: `/favorites?api_key=${FREE}`, headers: { ...J, authorization: basic('alice', 'wrong') }, status: 403, byGateway: false },
  { rule: 'paid-plan search parameters', target: `/recipes?cuisine=italian&api_key=${FREE}`, headers: J, status: 403, byGateway: false },
  { rule: 'at most 3 ingredients in include_ing', target: `/recipes?include_ing=a,b,c,d&api_key=${PAID}`, headers: J, status: 400, byGateway: true, mentions: 'include_ing' },
  { rule: 'at most 3 ingredients in exclude_ing', target: `/recipes?exclude_ing=a,b,c,d&api_key=${PAID}`, headers: J, status: 400, byGateway: true, mentions: 'exclude_ing' },
  { rule: 'include_primarycat token', target: `/recipes?include_primarycat=dinner&api_key=${PAID}`, headers: J, status: 400, byGateway: true, mentions: 'include_primarycat' },
  { rule: 'rpp at most 50', target: `/recipes?rpp=51&api_key=${FREE}`, headers: J, status: 400, byGateway: true, mentions: 'rpp' },
  { rule: 'pg is a page number', target: `/recipes?pg=0&api_key=${FREE}`, headers: J, status: 400, byGateway: true, mentions: 'pg' },
  { rule: 'rating 1-5', method: 'POST', target: `/reviews?api_key=${FREE}`, headers: JSON_BODY, body: review({ rating: 6 }), status: 400, byGateway: true, mentions: 'rating' },
  { rule: 'makeagain yes/no/notmake', method: 'POST', target: `/reviews?api_key=${FREE}`, headers: JSON_BODY, body: review({ makeagain: 'maybe' }), status: 400, byGateway: true, mentions: 'makeagain' },
  { rule: 'message required', method: 'POST', target: `/reviews?api_key=${FREE}`, headers: JSON_BODY, body: review({ message: '' }), status: 400, byGateway: true, mentions: 'message' },
  { rule: 'rid required on review update', method: 'PUT', target: `/review/1?api_key=${FREE}`, headers: JSON_BODY, body: JSON.stringify({ rating: 3, makeagain: 'no', message: 'x' }), status: 400, byGateway: true, mentions: 'rid' },
  { rule: 'rid required for reviews of a recipe', target: `/reviews?api_key=${FREE}`, headers: J, status: 400, byGateway: true, mentions: 'rid' },
  { rule: 'review id is a number', target: `/review/abc?api_key=${FREE}`, headers: J, status: 400, byGateway: true, mentions: 'id' },
  { rule: 'grocery quantity and name required', method: 'POST', target: `/grocerylist?api_key=${FREE}`, headers: JSON_BODY, body: '{"notes":"x"}', status: 400, byGateway: true, mentions: 'quantity' },
  { rule: 'grocery id is a number or a GUID', method: 'DELETE', target: `/grocerylist/not-an-id?api_key=${FREE}`, headers: { ...J, authorization: ALICE }, status: 400, byGateway: true, mentions: 'id' },
  { rule: 'favorite rid required', method: 'POST', target: `/favorites?api_key=${FREE}`, headers: JSON_BODY, body: '{}', status: 400, byGateway: true, mentions: 'rid' },
  { rule: 'try soon rid is a number', method: 'DELETE', target: `/trysoons?rid=x&api_key=${FREE}`, headers: { ...J, authorization: ALICE }, status: 400, byGateway: true, mentions: 'rid' },
  { rule: 'a JSON body must parse', method: 'POST', target: `/favorites?api_key=${FREE}`, headers: JSON_BODY, body: '{"rid":', status: 400, byGateway: true, mentions: 'JSON' },
  { rule: 'errors in XML for XML clients', target: `/recipes?rpp=500&api_key=${FREE}`, status: 400, byGateway: true, mentions: 'rpp' },
];

describe('bad input', () => {
  it.each(cases)('$rule → $status, the same answer as the legacy backend', async (c) => {
    const before = pair.behind.store ? countOf(pair) : 0;
    const res = await pair.both({ method: c.method ?? 'GET', target: c.target, headers: c.headers ?? {}, ...(c.body !== undefined ? { body: c.body } : {}) });
    expect(res.status).toBe(c.status);
    if (c.mentions) expect(res.text()).toContain(c.mentions);
    if (c.byGateway) {
      expect(res.headers['x-gateway-error']).toMatch(/invalid-request|unauthenticated/);
      expect(countOf(pair)).toBe(before);
    } else {
      expect(res.headers['x-gateway-error']).toBeUndefined();
    }
  });

  it('names every broken field and its rule, in the legacy error shape', async () => {
    const res = await pair.both({
      method: 'POST',
      target: `/reviews?api_key=${FREE}`,
      headers: JSON_BODY,
      body: JSON.stringify({ rid: 0, rating: 9, makeagain: 'yes', message: 'x' }),
    });
    expect(res.json()).toEqual({
      Message: 'The request is invalid: rid must be a whole number from 1 to 2147483647; rating must be one of 1, 2, 3, 4, 5.',
      ModelState: { rid: ['rid must be a whole number from 1 to 2147483647'], rating: ['rating must be one of 1, 2, 3, 4, 5'] },
    });
  });
});

/** Requests that reached the backend behind the gateway, from its request records. */
function countOf(p: ParityPair): number {
  return p.gateway.records.filter((r) => r.mode === 'legacy').length;
}

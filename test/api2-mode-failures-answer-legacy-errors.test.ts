/**
 * api2 failures reach the legacy client as legacy-style errors: api2 400/403/404/500 keep their
 * status; unreachable → 502, too slow → 504; an answer off api2's published schema → 502 naming
 * the call and the failing path, never half-mapped. The bad inputs of the foundation give the
 * same legacy errors in api2 mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { startTlsUpstream } from './support/tls-upstream.js';
import type { TlsUpstream } from './support/tls-upstream.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { MAPPED_ROUTES, startApi2ModeRig } from './support/api2-mode.js';
import type { Api2ModeRig } from './support/api2-mode.js';
import { closedAfterEachTest } from './support/cleanup.js';
import { refusedPort } from './support/refused-port.js';

const J = { accept: 'application/json' };
const FREE = 'sandbox-free-key';
const ALICE = basic('alice', 'alice-pass');

let legacy: RecordingUpstream;
const cleanup = closedAfterEachTest();
beforeAll(async () => {
  legacy = await startRecordingUpstream();
});
afterAll(() => legacy.close());

async function gatewayOnApi2(api2: TlsUpstream | { origin: string; caFile?: string }, timeoutMs = 5000): Promise<TestGateway> {
  const gateway = await startTestGateway(legacy.origin, {
    upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, ...(api2.caFile ? { caFile: api2.caFile } : {}) } },
    routes: MAPPED_ROUTES,
    timeouts: { defaultMs: timeoutMs },
  });
  cleanup.push(() => gateway.close());
  return gateway;
}

async function misbehavingApi2(status: number, body: string): Promise<TlsUpstream> {
  const api2 = await startTlsUpstream((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(body);
  });
  cleanup.push(() => api2.close());
  return api2;
}

describe('api2 answers that are errors', () => {
  it.each([400, 403, 404, 500])('api2 %i becomes the same legacy status with api2\'s message', async (status) => {
    const gateway = await gatewayOnApi2(await misbehavingApi2(status, JSON.stringify({ Message: `api2 says ${status}` })));
    const res = await send(gateway.origin, { target: `/recipes?title_kw=x&api_key=${FREE}`, headers: J });
    expect(res.status).toBe(status);
    expect(res.json()).toEqual({ Message: `api2 says ${status}` });
    expect(legacy.requests).toHaveLength(0);
  });

  it('api2 401 becomes 403; 503 becomes 502', async () => {
    const unauthorised = await gatewayOnApi2(await misbehavingApi2(401, '{}'));
    expect((await send(unauthorised.origin, { target: `/grocerylist?api_key=${FREE}`, headers: { ...J, authorization: ALICE } })).status).toBe(403);
    const unavailable = await gatewayOnApi2(await misbehavingApi2(503, ''));
    expect((await send(unavailable.origin, { target: `/grocerylist?api_key=${FREE}`, headers: { ...J, authorization: ALICE } })).status).toBe(502);
  });

  it('an answer off the published schema is a 502 naming the call and the failing path, in XML too', async () => {
    const gateway = await gatewayOnApi2(await misbehavingApi2(200, JSON.stringify({ ResultCount: 1, Results: [{ RecipeID: 5, StarRating: 'five' }] })));
    const res = await send(gateway.origin, { target: `/recipes?title_kw=x&api_key=${FREE}`, headers: J });
    expect(res.status).toBe(502);
    expect(res.headers['x-gateway-error']).toBe('api2-schema');
    expect((res.json() as { Message: string }).Message).toContain('GET /recipes does not match its schema at Results[0].StarRating');
    expect(gateway.records.at(-1)).toMatchObject({ operation: 'recipes.search', mode: 'api2', error: 'api2-schema GET /recipes Results[0].StarRating' });
    const xml = await send(gateway.origin, { target: `/recipes?title_kw=x&api_key=${FREE}` });
    expect(xml.status).toBe(502);
    expect(xml.text()).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?><Error [^>]*><Message>Bad gateway: api2 answer to GET \/recipes/);
  });

  it('an answer that is not JSON is a 502', async () => {
    const gateway = await gatewayOnApi2(await misbehavingApi2(200, '<html>oops</html>'));
    const res = await send(gateway.origin, { target: `/grocerylist?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    expect(res.status).toBe(502);
    expect(res.headers['x-gateway-error']).toBe('api2-schema');
  });
});

describe('api2 out of reach', () => {
  it('a refused connection is a 502', async () => {
    const gateway = await gatewayOnApi2({ origin: `https://127.0.0.1:${await refusedPort()}` });
    const res = await send(gateway.origin, { target: `/recipes?api_key=${FREE}`, headers: J });
    expect(res.status).toBe(502);
    expect(res.headers['x-gateway-error']).toBe('upstream-unreachable');
  });

  it('an api2 that does not answer in time is a 504, and a write says its outcome is unknown', async () => {
    const silent = await startTlsUpstream(() => {
      /* never answers */
    });
    cleanup.push(() => silent.close());
    const gateway = await gatewayOnApi2(silent, 300);
    const read = await send(gateway.origin, { target: `/recipes?api_key=${FREE}`, headers: J });
    expect(read.status).toBe(504);
    const write = await send(gateway.origin, {
      method: 'POST',
      target: `/grocerylist?api_key=${FREE}`,
      headers: { ...J, authorization: ALICE, 'content-type': 'application/json' },
      body: JSON.stringify({ quantity: '1', name: 'milk' }),
    });
    expect(write.status).toBe(504);
    expect((write.json() as { Message: string }).Message).toContain('outcome is unknown');
    expect(silent.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('a certificate the configured CA does not vouch for is refused (502), never trusted blindly', async () => {
    const api2 = await misbehavingApi2(200, '{}');
    const other = await misbehavingApi2(200, '{}');
    const gateway = await gatewayOnApi2({ origin: api2.origin, caFile: other.caFile });
    const res = await send(gateway.origin, { target: `/recipes?api_key=${FREE}`, headers: J });
    expect(res.status).toBe(502);
    expect(api2.seen).toHaveLength(0);
  });
});

describe('bad input in api2 mode', () => {
  let rig: Api2ModeRig;
  beforeAll(async () => {
    rig = await startApi2ModeRig();
  });
  afterAll(() => rig.close());

  const cases: Array<[string, string, string, Record<string, string>, string?]> = [
    ['no api_key', 'GET', '/recipes?title_kw=soup', J],
    ['unknown api_key', 'GET', '/recipes?api_key=nope', J],
    ['no user on a user operation', 'GET', `/grocerylist?api_key=${FREE}`, J],
    ['wrong password', 'GET', `/favorites?api_key=${FREE}`, { ...J, authorization: basic('alice', 'wrong') }],
    ['paid parameter on the free plan', 'GET', `/recipes?cuisine=italian&api_key=${FREE}`, J],
    ['4 ingredients', 'GET', `/recipes?include_ing=a,b,c,d&api_key=sandbox-paid-key`, J],
    ['rpp 51', 'GET', `/recipes?rpp=51&api_key=${FREE}`, J],
    ['rating 6', 'POST', `/reviews?api_key=${FREE}`, { ...J, authorization: ALICE, 'content-type': 'application/json' }, JSON.stringify({ rid: 3, rating: 6, makeagain: 'yes', message: 'x' })],
    ['makeagain maybe', 'POST', `/reviews?api_key=${FREE}`, { ...J, authorization: ALICE, 'content-type': 'application/json' }, JSON.stringify({ rid: 3, rating: 5, makeagain: 'maybe', message: 'x' })],
    ['grocery name missing', 'POST', `/grocerylist?api_key=${FREE}`, { ...J, authorization: ALICE, 'content-type': 'application/json' }, '{"quantity":"1"}'],
    ['unknown review', 'GET', `/review/99999999?api_key=${FREE}`, J],
    ['unknown grocery item', 'DELETE', `/grocerylist/99999999?api_key=${FREE}`, { ...J, authorization: ALICE }],
  ];

  it.each(cases)('%s: the same status as legacy; the same body where the gateway judges it', async (_name, method, target, headers, body) => {
    const req = { method, target, headers, ...(body !== undefined ? { body } : {}) };
    const viaApi2 = await send(rig.gateway.origin, req);
    const straight = await send(rig.direct.origin, req);
    expect(viaApi2.status).toBe(straight.status);
    expect(viaApi2.headers['content-type']).toBe(straight.headers['content-type']);
    expect(Object.keys(viaApi2.json() as object)).toContain('Message');
    if (viaApi2.status === 400 || viaApi2.headers['x-gateway-error'] === 'unauthenticated') {
      expect(viaApi2.json()).toEqual(straight.json());
    }
  });
});

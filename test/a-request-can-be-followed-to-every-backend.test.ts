/**
 * A request can be followed across backends: the client's W3C `traceparent` reaches the legacy
 * backend (a shared cache fill, a request answered to its own client, an uncatalogued one) and each
 * api2 call of a mapping (grocery.update's several calls included) with the same trace id and a span
 * id of its own per call; one is made when the client sends none or an invalid one; the request id
 * goes along as X-Request-Id; the client's User-Agent reaches the legacy backend as sent and api2
 * after the gateway's own; the usage line holds both ids; no credential reaches these headers.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_PRODUCT } from '../src/gateway/product.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import type { SeenApi2Request, StartedApi2Sandbox } from '../src/sandbox/api2-start.js';
import { createSandboxStores } from '../src/sandbox/shared-stores.js';
import { basic, send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordedRequest, RecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_PARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;
const KEY = 'sandbox-free-key';
const ALICE = basic('alice', 'alice-pass');
const UA = 'bigoven-js/2.1 (+https://example.test) node/20';

let legacy: RecordingUpstream;
let api2: StartedApi2Sandbox;
const api2Requests: SeenApi2Request[] = [];
let gateway: TestGateway;
let logFile: string;
let closed = false;

beforeAll(async () => {
  legacy = await startRecordingUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"ResultCount":0,"Results":[]}');
  });
  api2 = await startApi2Sandbox({ store: createSandboxStores().api2, onRequest: (r) => api2Requests.push(r) });
  logFile = join(await mkdtemp(join(tmpdir(), 'trace-')), 'usage.log');
  gateway = await startTestGateway(legacy.origin, {
    upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    routes: { 'grocery.list': { mode: 'api2' }, 'grocery.update': { mode: 'api2' } },
    observability: { log: { destination: logFile } },
  });
});
afterAll(async () => {
  if (!closed) await gateway?.close();
  await Promise.all([legacy?.close(), api2?.close()]);
});

/** The legacy requests `exchange` caused (at least one). */
async function legacyCalls(exchange: () => Promise<unknown>): Promise<RecordedRequest[]> {
  const before = legacy.requests.length;
  await exchange();
  const sent = legacy.requests.slice(before);
  expect(sent.length, 'legacy requests caused by this exchange').toBeGreaterThan(0);
  return sent;
}

async function api2Calls(exchange: () => Promise<unknown>): Promise<SeenApi2Request[]> {
  const before = api2Requests.length;
  await exchange();
  return api2Requests.slice(before);
}

function parts(traceparent: unknown): { traceId: string; spanId: string; flags: string } {
  const match = TRACEPARENT.exec(String(traceparent));
  expect(match, `traceparent ${String(traceparent)}`).not.toBeNull();
  return { traceId: match![1]!, spanId: match![2]!, flags: match![3]! };
}

describe('the legacy backend', () => {
  it.each([
    ['a shared search fill', { target: `/recipes?title_kw=traced&api_key=${KEY}` }],
    ['a request answered to its own client', { target: `/review/17?api_key=${KEY}` }],
    ['an uncatalogued request', { target: `/recipe/17/notes?api_key=${KEY}` }],
  ])('%s: the client trace id under a span id of the gateway, the request id, the User-Agent as sent', async (_name, request) => {
    const [call] = await legacyCalls(() =>
      send(gateway.origin, { ...request, headers: { traceparent: CLIENT_PARENT, tracestate: 'vendor=abc', 'x-request-id': 'client-req-1', 'user-agent': UA, accept: 'application/json' } }),
    );
    const sent = parts(call!.headers['traceparent']);
    expect(sent.traceId).toBe(TRACE_ID);
    expect(sent.spanId).not.toBe('00f067aa0ba902b7');
    expect(sent.flags).toBe('01');
    expect(call!.headers['tracestate']).toBe('vendor=abc');
    expect(call!.headers['x-request-id']).toBe('client-req-1');
    expect(call!.headers['user-agent']).toBe(UA);
  });

  it('makes a trace when the client sends none or an invalid one, and a request id when none is acceptable', async () => {
    const seen: string[] = [];
    for (const traceparent of [undefined, 'garbage', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, `00-${TRACE_ID.toUpperCase()}-00f067aa0ba902b7-01`, `ff-${TRACE_ID}-00f067aa0ba902b7-01`]) {
      const headers: Record<string, string> = { 'x-request-id': 'not acceptable: spaces', tracestate: 'leaked=1' };
      if (traceparent) headers['traceparent'] = traceparent;
      const [call] = await legacyCalls(() => send(gateway.origin, { target: `/review/18?api_key=${KEY}`, headers }));
      const sent = parts(call!.headers['traceparent']);
      expect(sent.traceId).not.toBe(TRACE_ID);
      expect(sent.flags).toBe('01');
      expect(call!.headers['tracestate'], 'a tracestate goes only with a valid traceparent').toBeUndefined();
      expect(call!.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      seen.push(sent.traceId);
    }
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('api2', () => {
  it('every call of grocery.update carries the trace id with a span id of its own, the request id and the User-Agent after the gateway\'s', async () => {
    const list = await send(gateway.origin, { target: `/grocerylist?api_key=${KEY}`, headers: { authorization: ALICE, accept: 'application/json' } });
    expect(list.status).toBe(200);
    // An ItemID, not a GUID: the mapping resolves it first (GET, PUT, then GET: three calls).
    const itemId = (list.json() as { Items: Array<{ ItemID: number }> }).Items[0]!.ItemID;
    const calls = await api2Calls(() =>
      send(gateway.origin, {
        method: 'PUT',
        target: `/grocerylist/${itemId}?api_key=${KEY}`,
        headers: { traceparent: CLIENT_PARENT, 'x-request-id': 'client-req-2', 'user-agent': UA, authorization: ALICE, accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ quantity: '3', name: 'traced pears' }),
      }).then((res) => expect(res.status).toBe(200)),
    );
    expect(calls.map((call) => call.method), 'grocery.update by ItemID is three api2 calls').toEqual(['GET', 'PUT', 'GET']);
    const spans = calls.map((call) => {
      const sent = parts(call.headers['traceparent']);
      expect(sent.traceId).toBe(TRACE_ID);
      expect(call.headers['x-request-id']).toBe('client-req-2');
      expect(call.headers['user-agent']).toBe(`${GATEWAY_PRODUCT} ${UA}`);
      return sent.spanId;
    });
    expect(new Set(spans).size, 'one span id per call').toBe(calls.length);
  });

  it('without a client User-Agent, api2 is told the gateway alone', async () => {
    const calls = await api2Calls(() => send(gateway.origin, { target: `/grocerylist?api_key=${KEY}`, headers: { authorization: ALICE, accept: 'application/json' } }));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers['user-agent']).toBe(GATEWAY_PRODUCT);
    expect(parts(calls[0]!.headers['traceparent']).traceId).not.toBe(TRACE_ID);
  });
});

describe('the usage line and secrets', () => {
  it('holds the request id and the trace id the backends saw; no credential is in the trail headers', async () => {
    const secretKey = 'sandbox-paid-key';
    const [call] = await legacyCalls(() =>
      send(gateway.origin, { target: `/review/19?api_key=${secretKey}`, headers: { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-00`, 'x-request-id': 'client-req-3', authorization: ALICE } }),
    );
    const trail = [call!.headers['traceparent'], call!.headers['tracestate'], call!.headers['x-request-id'], call!.headers['user-agent']].join(' ');
    for (const secret of [secretKey, ALICE, 'alice-pass', ALICE.slice('Basic '.length)]) expect(trail).not.toContain(secret);
    expect(parts(call!.headers['traceparent']).flags, 'the sampled flag is passed on as it came').toBe('00');
    for (const seen of api2Requests) {
      const apiTrail = [seen.headers['traceparent'], seen.headers['tracestate'], seen.headers['x-request-id'], seen.headers['user-agent']].join(' ');
      expect(apiTrail).not.toContain(KEY);
      expect(apiTrail).not.toContain(ALICE.slice('Basic '.length));
    }
    closed = true;
    await gateway.close();
    const lines = (await readFile(logFile, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    const mine = lines.find((line) => line['requestId'] === 'client-req-3');
    expect(mine).toMatchObject({ requestId: 'client-req-3', traceId: 'a'.repeat(32), operation: 'reviews.get' });
    const update = lines.find((line) => line['requestId'] === 'client-req-2');
    expect(update).toMatchObject({ traceId: TRACE_ID, operation: 'grocery.update', mode: 'api2' });
    const made = lines.find((line) => line['operation'] === 'grocery.list' && line['traceId'] !== TRACE_ID);
    expect(made?.['traceId']).toMatch(/^[0-9a-f]{32}$/);
  });
});

/**
 * Traces over OTLP (docs/tracing.md): with `observability.tracing` on at a head ratio of 1, a real
 * OTLP/HTTP receiver on loopback (decoding with OpenTelemetry's own protobuf definitions) gets, for
 * a legacy pass-through, an api2-mapped request of several calls, a cached answer and a shadowed
 * request: one server span named by the operation (continuing the client's trace), and one client
 * span per upstream call whose span id is the one in the `traceparent` that upstream received;
 * the attributes as documented; no secret anywhere in what is sent; the export's headers sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import type { SeenApi2Request, StartedApi2Sandbox } from '../src/sandbox/api2-start.js';
import { createSandboxStores } from '../src/sandbox/shared-stores.js';
import { basic, send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { startOtlpReceiver } from './support/otlp-receiver.js';
import type { OtlpReceiver, ReceivedSpan } from './support/otlp-receiver.js';
import { waitFor } from './support/wait.js';

const KEY = 'sandbox-free-key';
const PASSWORD = 'alice-pass';
const ALICE = basic('alice', PASSWORD);
const EXPORT_SECRET = 'receiver-api-key-not-for-spans';
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const J = { accept: 'application/json' };
const SERVER = 2;
const CLIENT = 3;

let legacy: RecordingUpstream;
let api2: StartedApi2Sandbox;
const api2Requests: SeenApi2Request[] = [];
let receiver: OtlpReceiver;
let gateway: TestGateway;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  legacy = await startRecordingUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"ResultCount":0,"Results":[]}');
  });
  api2 = await startApi2Sandbox({ store: createSandboxStores().api2, onRequest: (r) => api2Requests.push(r) });
  gateway = await startTestGateway(legacy.origin, {
    upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
    routes: { 'grocery.list': { mode: 'api2' }, 'grocery.update': { mode: 'api2' }, 'recipes.search': { mode: 'shadow' } },
    cache: { enabled: true },
    observability: { tracing: { enabled: true, endpoint: receiver.url, headers: { 'x-receiver-key': EXPORT_SECRET }, headRatio: 1, flushMs: 50 } },
  });
});
afterAll(async () => {
  await gateway?.close();
  await Promise.all([legacy?.close(), api2?.close(), receiver?.close()]);
});

/** The traceparents upstreams received in one trace: span id → upstream. */
function sentInTrace(traceId: string): Map<string, string> {
  const sent = new Map<string, string>();
  const add = (traceparent: unknown, upstream: string) => {
    const [, trace, span] = String(traceparent).split('-');
    if (trace === traceId && span) sent.set(span, upstream);
  };
  for (const r of legacy.requests) add(r.headers['traceparent'], 'legacy');
  for (const r of api2Requests) add(r.headers['traceparent'], 'api2');
  return sent;
}

/** The exported spans of the trace once its server span and `calls` client spans arrived. */
async function trace(traceId: string, calls: number): Promise<{ server: ReceivedSpan; clients: ReceivedSpan[] }> {
  const of = () => receiver.spans.filter((s) => s.traceId === traceId);
  await waitFor(() => of().some((s) => s.kind === SERVER) && of().filter((s) => s.kind === CLIENT).length >= calls, 5000, `the spans of ${traceId}`);
  const servers = of().filter((s) => s.kind === SERVER);
  expect(servers).toHaveLength(1);
  return { server: servers[0]!, clients: of().filter((s) => s.kind === CLIENT) };
}

/** Each client span is a child of the server span and has the span id an upstream received in its traceparent, one for one. */
function expectCallsMatch(traceId: string, server: ReceivedSpan, clients: ReceivedSpan[]): void {
  const sent = sentInTrace(traceId);
  expect(clients.map((c) => c.spanId).sort()).toEqual([...sent.keys()].sort());
  for (const client of clients) {
    expect(client.parentSpanId).toBe(server.spanId);
    expect(client.attributes['recipe_gateway.upstream']).toBe(sent.get(client.spanId));
    expect(client.attributes['http.request.method']).toBe(client.name.split(' ')[0]);
    expect(String(client.attributes['url.full'])).not.toContain('?');
  }
}

describe('each exported trace', () => {
  it('a legacy pass-through continues the client\'s trace: the server span under the client\'s span, its one call a client span with the id legacy received', async () => {
    const res = await send(gateway.origin, { target: `/review/17?api_key=${KEY}`, headers: { ...J, traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`, 'x-request-id': 'traced-1' } });
    expect(res.status).toBe(200);
    const { server, clients } = await trace(CLIENT_TRACE, 1);
    expect(server.name).toBe('reviews.get');
    expect(server.parentSpanId).toBe(CLIENT_SPAN);
    expect(server.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'recipe_gateway.operation': 'reviews.get',
      'recipe_gateway.answered_by': 'legacy',
      'recipe_gateway.route_mode': 'legacy',
      'recipe_gateway.request_id': 'traced-1',
      'recipe_gateway.trace.kept': 'sampled',
    });
    expect(server.attributes['recipe_gateway.client']).toMatch(/^[0-9a-f]{16}$/);
    expect(server.resource['service.name']).toBe('recipe-gateway');
    expect(clients).toHaveLength(1);
    expect(clients[0]!.attributes).toMatchObject({ 'http.response.status_code': 200, 'server.address': '127.0.0.1' });
    expectCallsMatch(CLIENT_TRACE, server, clients);
    expect(gateway.records.find((r) => r.requestId === 'traced-1')?.traced).toBe('sampled');
  });

  it('an api2 mapping of three calls (grocery.update by ItemID): a client span for each, with the ids api2 received', async () => {
    const list = await send(gateway.origin, { target: `/grocerylist?api_key=${KEY}`, headers: { ...J, authorization: ALICE } });
    expect(list.status).toBe(200);
    const itemId = (list.json() as { Items: Array<{ ItemID: number }> }).Items[0]!.ItemID;
    const res = await send(gateway.origin, {
      method: 'PUT',
      target: `/grocerylist/${itemId}?api_key=${KEY}`,
      headers: { ...J, authorization: ALICE, 'content-type': 'application/json', 'x-request-id': 'traced-update' },
      body: JSON.stringify({ quantity: '3', name: 'traced pears' }),
    });
    expect(res.status).toBe(200);
    const traceId = gateway.records.find((r) => r.requestId === 'traced-update')!.traceId!;
    const { server, clients } = await trace(traceId, 3);
    expect(server.name).toBe('grocery.update');
    expect(server.parentSpanId, 'a trace the gateway started has no parent').toBeUndefined();
    expect(server.attributes).toMatchObject({ 'recipe_gateway.answered_by': 'api2', 'recipe_gateway.route_mode': 'api2', 'http.request.method': 'PUT' });
    expect(clients.map((c) => c.name).sort()).toEqual(['GET api2', 'GET api2', 'PUT api2']);
    expectCallsMatch(traceId, server, clients);
  });

  it('a shadowed search: the legacy call, then the comparison\'s api2 call in the background, and the comparison\'s outcome; its cached repeat: a cache HIT whose only calls are its comparison\'s', async () => {
    const target = `/recipes?title_kw=traced&api_key=${KEY}`;
    const first = await send(gateway.origin, { target, headers: { ...J, 'x-request-id': 'traced-shadow' } });
    expect(first.status).toBe(200);
    await waitFor(() => gateway.shadows.some((s) => s.requestId === 'traced-shadow'));
    const shadowLine = gateway.shadows.find((s) => s.requestId === 'traced-shadow')!;
    const traceId = gateway.records.find((r) => r.requestId === 'traced-shadow')!.traceId!;
    const { server, clients } = await trace(traceId, 2);
    expect(server.attributes).toMatchObject({ 'recipe_gateway.route_mode': 'shadow', 'recipe_gateway.cache': 'MISS', 'recipe_gateway.shadow.outcome': shadowLine.outcome });
    if (shadowLine.diffs?.length) expect(server.attributes['recipe_gateway.shadow.diffs']).toEqual(shadowLine.diffs.map((d) => d.path));
    const background = clients.filter((c) => c.attributes['recipe_gateway.call.background'] === true);
    expect(background.map((c) => c.attributes['recipe_gateway.upstream'])).toContain('api2');
    expectCallsMatch(traceId, server, clients);

    const again = await send(gateway.origin, { target, headers: { ...J, 'x-request-id': 'traced-hit' } });
    expect(again.status).toBe(200);
    const hitTrace = gateway.records.find((r) => r.requestId === 'traced-hit')!.traceId!;
    await waitFor(() => gateway.shadows.some((s) => s.requestId === 'traced-hit'));
    const hit = await trace(hitTrace, sentInTrace(hitTrace).size);
    expect(hit.server.attributes).toMatchObject({ 'recipe_gateway.cache': 'HIT', 'recipe_gateway.answered_by': 'legacy' });
    // The page answered the client: no call was made for it; a JSON client's stored page is still compared.
    expect(hit.clients.every((c) => c.attributes['recipe_gateway.call.background'] === true)).toBe(true);
    expectCallsMatch(hitTrace, hit.server, hit.clients);
  });

  it('carries no secret (api key, password, Authorization) and sends the configured export headers', async () => {
    await waitFor(() => receiver.exports.length > 0);
    for (const sent of receiver.exports) {
      expect(sent.headers['x-receiver-key']).toBe(EXPORT_SECRET);
      expect(sent.contentType).toBe('application/x-protobuf');
      for (const secret of [KEY, PASSWORD, ALICE, ALICE.slice('Basic '.length), EXPORT_SECRET]) expect(sent.raw).not.toContain(secret);
    }
  });
});

describe('protocol http/json', () => {
  it('sends the same spans as OTLP/JSON, ids as hex', async () => {
    const json = await startOtlpReceiver();
    const jsonGateway = await startTestGateway(legacy.origin, { observability: { tracing: { enabled: true, endpoint: json.url, protocol: 'http/json', headRatio: 1, flushMs: 50 } } });
    try {
      const res = await send(jsonGateway.origin, { target: `/review/18?api_key=${KEY}`, headers: { ...J, 'x-request-id': 'traced-json' } });
      expect(res.status).toBe(200);
      const traceId = jsonGateway.records.find((r) => r.requestId === 'traced-json')!.traceId!;
      await waitFor(() => json.spans.filter((s) => s.traceId === traceId).length === 2, 5000, 'the JSON spans');
      expect(json.exports[0]!.contentType).toBe('application/json');
      const server = json.spans.find((s) => s.traceId === traceId && s.kind === SERVER)!;
      const client = json.spans.find((s) => s.traceId === traceId && s.kind === CLIENT)!;
      expect(server.name).toBe('reviews.get');
      expect(client.parentSpanId).toBe(server.spanId);
      expect(sentInTrace(traceId).has(client.spanId)).toBe(true);
      expect(json.exports[0]!.raw).not.toContain(KEY);
    } finally {
      await jsonGateway.close();
      await json.close();
    }
  });
});

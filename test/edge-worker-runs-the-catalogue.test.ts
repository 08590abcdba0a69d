/**
 * The edge entry (src/edge/worker.ts) runs the unchanged core in workerd, the open-source Workers
 * runtime, and answers the catalogue's operations like the Node gateway does.
 *
 * What runs where:
 * - src/edge/worker.ts is bundled with esbuild as Wrangler bundles it (test/support/edge-bundle.ts, no Node builtins) and
 *   started by miniflare in a real workerd process, with no compatibility flag (no nodejs_compat).
 *   Its config is the `GATEWAY_CONFIG` binding (JSON text), its upstream client is fetch, its
 *   usage log is console.log, read here from workerd's stdout.
 * - The sandbox backends (legacy over http, api2 over https with a self-signed certificate) run in
 *   this Node process on 127.0.0.1. The Worker reaches them through workerd's own network stack.
 * - For comparison, a Node gateway (src/node/server.ts) runs in front of identical sandboxes
 *   (same dataset, same frozen clock); every request is sent to both gateways over real HTTP and
 *   the answers must agree: status, the headers that matter, and the body bytes.
 *
 * DECISION (TLS to the api2 sandbox): workerd does not trust the sandbox's self-signed certificate
 * (test/edge-fetch-client-in-workerd.test.ts shows the refusal). Rather than disabling
 * verification or forwarding the Worker's fetches through a Node function, the Worker's outbound
 * service is workerd's network service with the sandbox certificate as a trusted CA
 * (`outboundService: { network: { allow: ['local'], tlsOptions: { trustedCertificates } } }`):
 * workerd itself opens the connection and verifies the certificate, exactly as a Node gateway with
 * `caFile` does, and the Worker's code is the one deployed. `allow: ['local']` keeps the Worker
 * on loopback. (On the Workers platform the api2 host has a publicly trusted certificate.)
 */
import { gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import type { MiniflareOptions } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACEHOLDER_PHOTO_URL } from '../src/sandbox/dataset/dataset.js';
import { Api2Store } from '../src/sandbox/api2-store.js';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import type { SeenApi2Request, StartedApi2Sandbox } from '../src/sandbox/api2-start.js';
import { LegacyStore } from '../src/sandbox/legacy-store.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { parseLine } from '../src/report/parse-record.js';
import { MAPPED_ROUTES, startApi2ModeRig } from './support/api2-mode.js';
import type { Api2ModeRig } from './support/api2-mode.js';
import { validateApi2Request } from './support/api2-openapi.js';
import { EDGE_BUNDLE_OPTIONS } from './support/edge-bundle.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { basic, send } from './support/http.js';
import type { RawRequest, RawResponse } from './support/http.js';
import { FROZEN_NOW } from './support/parity.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';

const ROOT = new URL('..', import.meta.url).pathname;
const FREE = 'sandbox-free-key';
const PAID = 'sandbox-paid-key';
const ALICE = basic('alice', 'alice-pass');
const J = { accept: 'application/json' };
const USER_JSON = { ...J, authorization: ALICE, 'content-type': 'application/json' };
const HASH_KEY = 'edge-test-hash-key-not-a-secret';
/** Headers a client relies on that both gateways must give alike (date, x-request-id differ per exchange). */
const COMPARED = ['content-type', 'etag', 'vary', 'cache-control', 'location', 'x-gateway-error', 'x-cache', 'allow'];

let script: string;

interface EdgeGateway {
  readonly mf: Miniflare;
  readonly origin: string;
  /** Every line workerd wrote to stdout. */
  readonly lines: string[];
  /** The usage-log lines (`msg: "request"`), parsed. */
  records(): Array<Record<string, unknown>>;
  /** Restarts workerd with another GATEWAY_CONFIG (same script, same log capture). */
  reconfigure(config: unknown): Promise<void>;
  close(): Promise<void>;
}

async function startEdge(config: unknown, trustedCertificates: string[] = []): Promise<EdgeGateway> {
  const lines: string[] = [];
  let partial = '';
  const options: MiniflareOptions = {
    modules: true,
    script,
    compatibilityDate: '2025-07-01',
    host: '127.0.0.1',
    port: 0,
    bindings: { GATEWAY_CONFIG: JSON.stringify(config), GATEWAY_HASH_KEY: HASH_KEY },
    outboundService: { network: { allow: ['local'], tlsOptions: { trustedCertificates } } },
    handleRuntimeStdio(stdout, stderr) {
      stdout.on('data', (chunk: Buffer) => {
        const text = partial + chunk.toString('utf8');
        const parts = text.split('\n');
        partial = parts.pop() ?? '';
        lines.push(...parts.filter((line) => line.trim() !== ''));
      });
      stderr.resume();
    },
  };
  const mf = new Miniflare(options);
  const url = await mf.ready;
  return {
    mf,
    origin: url.origin,
    lines,
    records: () =>
      lines.flatMap((line) => {
        try {
          const value = JSON.parse(line) as Record<string, unknown>;
          return value['msg'] === 'request' ? [value] : [];
        } catch {
          return [];
        }
      }),
    reconfigure: (next) => mf.setOptions({ ...options, bindings: { GATEWAY_CONFIG: JSON.stringify(next) } }),
    close: () => mf.dispose(),
  };
}

async function lineContaining(edge: EdgeGateway, text: string): Promise<string> {
  for (let i = 0; i < 200 && !edge.lines.some((line) => line.includes(text)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return edge.lines.find((line) => line.includes(text)) ?? '';
}

/** Waits until workerd's stdout has delivered `count` usage-log lines. */
async function recordsAtLeast(edge: EdgeGateway, count: number): Promise<Array<Record<string, unknown>>> {
  for (let i = 0; i < 100 && edge.records().length < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return edge.records();
}

/** The body as the client reads it: decoded when the answer says gzip. */
function decodedBody(response: RawResponse): Buffer {
  return response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.body) : response.body;
}

/** Sends the same request to the edge gateway and the Node gateway; both must answer alike. */
async function compare(edge: EdgeGateway, node: TestGateway, req: RawRequest): Promise<RawResponse> {
  const count = edge.records().length;
  const viaEdge = await send(edge.origin, req);
  const viaNode = await send(node.origin, req);
  const label = `${req.method ?? 'GET'} ${req.target}`;
  expect(viaEdge.status, `${label}\nedge: ${viaEdge.text().slice(0, 300)}\nnode: ${viaNode.text().slice(0, 300)}`).toBe(viaNode.status);
  for (const name of COMPARED) expect(viaEdge.headers[name], `${label}: ${name}`).toEqual(viaNode.headers[name]);
  const edgeBody = decodedBody(viaEdge);
  const nodeBody = decodedBody(viaNode);
  expect(edgeBody.equals(nodeBody), `${label}: body bytes\nedge: ${edgeBody.toString('utf8').slice(0, 300)}\nnode: ${nodeBody.toString('utf8').slice(0, 300)}`).toBe(true);
  if (viaEdge.headers['content-encoding'] === undefined && req.method !== 'HEAD' && viaEdge.status !== 304 && viaEdge.status !== 204) {
    expect(Number(viaEdge.headers['content-length'] ?? viaEdge.body.byteLength), `${label}: content-length`).toBe(viaEdge.body.byteLength);
  }
  await recordsAtLeast(edge, count + 1);
  return viaEdge;
}

beforeAll(async () => {
  const bundle = await build({ ...EDGE_BUNDLE_OPTIONS, entryPoints: [`${ROOT}src/edge/worker.ts`] });
  script = bundle.outputFiles[0]?.text ?? '';
}, 60_000);

describe('edge entry in workerd, legacy mode (every operation passed through)', () => {
  let edge: EdgeGateway;
  let edgeBackend: StartedLegacySandbox;
  let nodeBackend: StartedLegacySandbox;
  let node: TestGateway;
  const both = (req: RawRequest) => compare(edge, node, req);
  const user = (extra: Record<string, string> = {}) => ({ ...J, authorization: ALICE, ...extra });

  beforeAll(async () => {
    edgeBackend = await startLegacySandbox({ store: new LegacyStore({ now: () => FROZEN_NOW }) });
    nodeBackend = await startLegacySandbox({ store: new LegacyStore({ now: () => FROZEN_NOW }) });
    const shared = { legacyHosts: ['api.bigoven.com'], observability: { hashKey: HASH_KEY } };
    node = await startTestGateway(nodeBackend.origin, shared);
    edge = await startEdge({ upstreams: { legacy: { baseUrl: edgeBackend.origin } }, ...shared });
  }, 60_000);
  afterAll(async () => {
    await edge?.close();
    await node?.close();
    await Promise.all([edgeBackend?.close(), nodeBackend?.close()]);
  });

  it('recipes.search: canonical, /v1/, trailing slash, upper case, XML, HEAD, gzip, 304, paid filters', async () => {
    const query = `title_kw=soup&pg=1&rpp=5&api_key=${FREE}`;
    const first = await both({ target: `/recipes?${query}`, headers: J });
    expect(first.status).toBe(200);
    expect((first.json() as { Results: unknown[] }).Results).toHaveLength(5);
    await both({ target: `/v1/recipes?${query}`, headers: J });
    await both({ target: `/recipes/?${query}`, headers: J });
    await both({ target: `/RECIPES?${query}`, headers: J });
    const xml = await both({ target: `/recipes?${query}` });
    expect(xml.headers['content-type']).toMatch(/xml/);
    const head = await both({ method: 'HEAD', target: `/recipes?${query}`, headers: J });
    expect(head.body.byteLength).toBe(0);
    const gzipped = await both({ target: `/recipes?title_kw=a&rpp=50&api_key=${FREE}`, headers: { ...J, 'accept-encoding': 'gzip' } });
    expect(JSON.parse(decodedBody(gzipped).toString('utf8'))).toHaveProperty('Results');
    const etag = first.headers['etag'] as string;
    expect(etag).toBeTruthy();
    const notModified = await both({ target: `/recipes?${query}`, headers: { ...J, 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    await both({
      target: `/recipes?any_kw=chicken&include_primarycat=main%20dish&cuisine=italian&include_ing=garlic,%20onion&exclude_ing=peanut&photos=1&pg=1&rpp=10&api_key=${PAID}`,
      headers: J,
    });
    const refusedPlan = await both({ target: `/recipes?cuisine=italian&api_key=${FREE}`, headers: J });
    expect(refusedPlan.status).toBe(403);
  });

  it('reviews: create (JSON, form and query carriage), read one, read all, update, delete', async () => {
    const created = await both({
      method: 'POST',
      target: `/reviews?api_key=${FREE}`,
      headers: user({ 'content-type': 'application/json' }),
      body: JSON.stringify({ rid: 3, rating: 4, makeagain: 'yes', message: 'Lovely', totaltime: 40, activetime: 15 }),
    });
    expect(created.status).toBe(200);
    const id = (created.json() as { ReviewID: number }).ReviewID;
    await both({ method: 'POST', target: `/v1/reviews?api_key=${FREE}`, headers: user({ 'content-type': 'application/x-www-form-urlencoded' }), body: 'rid=4&rating=2&makeagain=notmake&message=Too+salty' });
    await both({ method: 'POST', target: `/reviews?api_key=${FREE}&rid=5&rating=5&makeagain=no&message=ok`, headers: user() });
    await both({ target: `/review/${id}?api_key=${FREE}`, headers: J });
    await both({ target: `/review/${id}?api_key=${FREE}` });
    await both({ target: `/reviews?rid=3&api_key=${FREE}`, headers: J });
    const updated = await both({ method: 'PUT', target: `/review/${id}?api_key=${FREE}`, headers: user({ 'content-type': 'application/json' }), body: JSON.stringify({ rid: 3, rating: 5, makeagain: 'yes', message: 'Even better' }) });
    expect(updated.status).toBe(200);
    expect((await both({ method: 'DELETE', target: `/review/${id}?api_key=${FREE}`, headers: user() })).status).toBe(204);
    expect((await both({ target: `/review/${id}?api_key=${FREE}`, headers: J })).status).toBe(404);
  });

  it('grocery list: create, read, update and delete in the malformed and the regular forms', async () => {
    const add = (name: string) =>
      both({ method: 'POST', target: `/grocerylist?api_key=${FREE}`, headers: user({ 'content-type': 'application/json' }), body: JSON.stringify({ quantity: '2 lb', name, department: 'Produce' }) });
    const first = (await add('apples')).json() as { ItemID: number; GUID: string };
    const second = (await add('pears')).json() as { ItemID: number; GUID: string };
    await both({ target: `/grocerylist?api_key=${FREE}`, headers: user() });
    await both({ target: `/grocerylist?api_key=${FREE}`, headers: { authorization: ALICE } });
    const malformedUpdate = await both({ method: 'POST', target: `/grocerylist/${first.ItemID}?api_key=${FREE}`, headers: user({ 'content-type': 'application/x-www-form-urlencoded' }), body: 'quantity=3+lb&name=green+apples&notes=crisp' });
    expect(malformedUpdate.status).toBe(200);
    expect((await both({ method: 'PUT', target: `/grocerylist/${second.GUID}?api_key=${FREE}`, headers: user({ 'content-type': 'application/json' }), body: JSON.stringify({ quantity: '1', name: 'pear' }) })).status).toBe(200);
    expect((await both({ method: 'DELETE', target: `/grocerylist${first.ItemID}?api_key=${FREE}`, headers: user() })).status).toBe(204);
    expect((await both({ method: 'DELETE', target: `/grocerylist/${second.GUID}?api_key=${FREE}`, headers: user() })).status).toBe(204);
    await both({ target: `/v1/GroceryList/?api_key=${FREE}`, headers: user() });
  });

  it.each(['favorites', 'trysoons'])('%s: add, read, delete', async (list) => {
    expect((await both({ method: 'POST', target: `/${list}?api_key=${FREE}`, headers: user({ 'content-type': 'application/json' }), body: '{"rid":11}' })).status).toBe(204);
    expect((await both({ target: `/${list}?api_key=${FREE}`, headers: user() })).status).toBe(200);
    expect((await both({ method: 'DELETE', target: `/${list}?rid=11&api_key=${FREE}`, headers: user() })).status).toBe(204);
  });

  it('refuses bad input and hostile targets like the Node gateway; passes uncatalogued calls', async () => {
    expect((await both({ target: `/recipes?title_kw=soup`, headers: J })).status).toBe(403);
    expect((await both({ target: `/recipes?rpp=500&api_key=${FREE}`, headers: J })).status).toBe(400);
    expect((await both({ method: 'POST', target: `/reviews?api_key=${FREE}`, headers: user({ 'content-type': 'application/json' }), body: '{"rid":' })).status).toBe(400);
    expect((await both({ target: `/recipes/%2Fetc?api_key=${FREE}`, headers: J })).status).toBe(400);
    expect((await both({ target: `/recipe/12?api_key=${FREE}`, headers: J })).status).toBe(200);
    await both({ target: `/no/such/thing?api_key=${FREE}`, headers: J });
  });

  it('sees dot segments already resolved by the runtime: routed and forwarded as resolved, never above the base', async () => {
    // Known difference with Node (which answers 400 from the raw target): workerd parses the URL
    // (WHATWG: `%2e%2e` is `..`) before the Worker runs, so the gateway only ever sees `/admin`.
    // The path routed is still the path forwarded, and `..` cannot climb above `/`.
    const count = edge.records().length;
    const answer = await send(edge.origin, { target: `/recipes/%2e%2e/admin?api_key=${FREE}`, headers: J });
    expect(answer.status).toBe(404);
    const [record] = (await recordsAtLeast(edge, count + 1)).slice(count);
    expect(record).toMatchObject({ operation: 'uncatalogued', pathTemplate: '/admin' });
  });

  it('writes one usage-log JSON line per request on the console, in the Node log format the report reads', async () => {
    const records = await recordsAtLeast(edge, 35);
    expect(records.length).toBeGreaterThanOrEqual(35);
    const operations = new Set(records.map((r) => r['operation']));
    for (const id of ['recipes.search', 'reviews.create', 'reviews.get', 'reviews.list', 'reviews.update', 'reviews.delete', 'grocery.create', 'grocery.list', 'grocery.update', 'grocery.delete', 'favorites.create', 'favorites.list', 'favorites.delete', 'trysoons.create', 'trysoons.list', 'trysoons.delete', 'uncatalogued']) {
      expect(operations, id).toContain(id);
    }
    const search = records.find((r) => r['operation'] === 'recipes.search' && r['versionPrefix'] === 'v1');
    expect(search).toMatchObject({ level: 30, method: 'GET', mode: 'legacy', scheme: 'http', insecure: true, status: 200, cache: expect.any(String) });
    expect(Object.keys(search ?? {})[0]).toBe('level');
    // Same keyed client hash as the Node gateway with the same hash key: logs can be joined.
    const nodeSearch = node.records.find((r) => r.operation === 'recipes.search');
    expect(search?.['client']).toBe(nodeSearch?.client);
    expect(JSON.stringify(records)).not.toContain(FREE);
    for (const line of edge.lines.filter((l) => l.includes('"msg":"request"'))) expect(parseLine(line).kind, line).toBe('record');
    expect(edge.lines.filter((line) => line.includes('"gateway started"')), 'the app is built once per isolate').toHaveLength(1);
  });

  it('takes TLS from the request URL', async () => {
    const count = edge.records().length;
    const secure = await edge.mf.dispatchFetch(`https://api.bigoven.com/recipes?title_kw=pie&api_key=${FREE}`, { headers: { ...J, 'cf-connecting-ip': '203.0.113.7' } });
    expect(secure.status).toBe(200);
    await secure.arrayBuffer();
    const plain = await edge.mf.dispatchFetch(`http://api.bigoven.com/recipes?title_kw=pie&api_key=${FREE}`, { headers: J });
    await plain.arrayBuffer();
    const [viaHttps, viaHttp] = (await recordsAtLeast(edge, count + 2)).slice(count);
    expect(viaHttps).toMatchObject({ scheme: 'https', insecure: false });
    expect(viaHttp).toMatchObject({ scheme: 'http', insecure: true });
  });
});

describe('edge entry in workerd, api2 mode (every mapped operation through api2 over verified TLS)', () => {
  let edge: EdgeGateway;
  let api2: StartedApi2Sandbox;
  let legacyBehind: StartedLegacySandbox;
  let rig: Api2ModeRig;
  const seenByApi2: SeenApi2Request[] = [];
  const both = (req: RawRequest) => compare(edge, rig.gateway, req);

  beforeAll(async () => {
    rig = await startApi2ModeRig({ observability: { hashKey: HASH_KEY } });
    api2 = await startApi2Sandbox({ store: new Api2Store({ now: () => FROZEN_NOW }), onRequest: (r) => seenByApi2.push(r) });
    legacyBehind = await startLegacySandbox({ store: new LegacyStore({ now: () => FROZEN_NOW }) });
    edge = await startEdge(
      {
        upstreams: { legacy: { baseUrl: legacyBehind.origin }, api2: { baseUrl: api2.origin } },
        api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
        legacyHosts: ['api.bigoven.com'],
        routes: MAPPED_ROUTES,
      },
      [api2.caPem],
    );
  }, 60_000);
  afterAll(async () => {
    await edge?.close();
    await rig?.close();
    await Promise.all([api2?.close(), legacyBehind?.close()]);
  });

  it('recipes.search, favorites.list and trysoons.list', async () => {
    await both({ target: `/recipes?title_kw=soup&pg=1&rpp=5&api_key=${FREE}`, headers: J });
    await both({ target: `/recipes?any_kw=chicken&pg=3&rpp=7&api_key=${FREE}`, headers: J });
    await both({ target: `/recipes?any_kw=chicken&include_primarycat=main%20dish&cuisine=ITALIAN&include_ing=garlic&exclude_ing=peanut&photos=1&rpp=20&api_key=${PAID}`, headers: J });
    await both({ target: `/v1/recipes?include_primarycat=dessert&rpp=10&api_key=${PAID}`, headers: J });
    await both({ target: `/recipes?title_kw=zzzznothing&api_key=${FREE}`, headers: J });
    await both({ target: `/recipes?title_kw=pie&rpp=3&api_key=${FREE}` });
    await both({ target: `/recipes?title_kw=pie&rpp=3&api_key=${FREE}`, headers: { authorization: ALICE, ...J, 'accept-encoding': 'gzip' } });
    await both({ target: `/favorites?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    await both({ target: `/trysoons?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    await both({ target: `/favorites?api_key=${FREE}`, headers: { ...J, authorization: basic('bob', 'bob-pass') } });
    expect((await both({ target: `/favorites?api_key=${FREE}`, headers: { ...J, authorization: basic('bob', 'wrong') } })).status).toBe(403);
  });

  it('reviews: create, read one, read all, update, delete (the delete mapped from this instance\'s memory)', async () => {
    const created = await both({ method: 'POST', target: `/reviews?api_key=${FREE}`, headers: USER_JSON, body: JSON.stringify({ rid: 7, rating: 4, makeagain: 'yes', message: 'Nice', totaltime: 30, activetime: 10 }) });
    expect(created.status).toBe(200);
    const id = (created.json() as { ReviewID: number }).ReviewID;
    await both({ target: `/review/${id}?api_key=${FREE}`, headers: J });
    await both({ target: `/reviews?rid=7&api_key=${FREE}`, headers: J });
    await both({ method: 'PUT', target: `/review/${id}?api_key=${FREE}`, headers: USER_JSON, body: JSON.stringify({ rid: 7, rating: 2, makeagain: 'notmake', message: 'Changed my mind' }) });
    expect((await both({ method: 'DELETE', target: `/review/${id}?api_key=${FREE}`, headers: { ...J, authorization: ALICE } })).status).toBe(204);
    expect((await both({ target: `/review/${id}?api_key=${FREE}`, headers: J })).status).toBe(404);
  });

  it('grocery: create, read, update and delete by ItemID and by GUID, malformed and regular forms', async () => {
    const add = (name: string) => both({ method: 'POST', target: `/grocerylist?api_key=${FREE}`, headers: USER_JSON, body: JSON.stringify({ quantity: '2 lb', name, department: 'Produce' }) });
    const first = (await add('apples')).json() as { ItemID: number; GUID: string };
    const second = (await add('pears')).json() as { ItemID: number; GUID: string };
    await both({ target: `/grocerylist?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
    await both({ target: `/grocerylist?api_key=${FREE}`, headers: { authorization: ALICE } });
    await both({ method: 'POST', target: `/grocerylist/${first.ItemID}?api_key=${FREE}`, headers: { ...J, authorization: ALICE, 'content-type': 'application/x-www-form-urlencoded' }, body: 'quantity=3+lb&name=green+apples&notes=crisp' });
    await both({ method: 'PUT', target: `/grocerylist/${second.GUID}?api_key=${FREE}`, headers: USER_JSON, body: JSON.stringify({ quantity: '1', name: 'pear' }) });
    expect((await both({ method: 'DELETE', target: `/grocerylist${first.ItemID}?api_key=${FREE}`, headers: { ...J, authorization: ALICE } })).status).toBe(204);
    expect((await both({ method: 'DELETE', target: `/grocerylist/${second.GUID}?api_key=${FREE}`, headers: { ...J, authorization: ALICE } })).status).toBe(204);
    await both({ method: 'DELETE', target: `/grocerylist/${second.GUID}?api_key=${FREE}`, headers: { ...J, authorization: ALICE } });
  });

  it('legacy-only operations stay on the legacy backend', async () => {
    expect((await both({ method: 'POST', target: `/favorites?api_key=${FREE}`, headers: USER_JSON, body: '{"rid":11}' })).status).toBe(204);
    expect((await both({ method: 'DELETE', target: `/favorites?rid=11&api_key=${FREE}`, headers: USER_JSON })).status).toBe(204);
    expect((await both({ method: 'POST', target: `/trysoons?api_key=${FREE}`, headers: USER_JSON, body: '{"rid":12}' })).status).toBe(204);
  });

  it('logged every mapped operation as api2, sent api2 only valid requests with the key in a header and the peer in X-Forwarded-For', async () => {
    const records = await recordsAtLeast(edge, 25);
    const mapped = records.filter((r) => typeof r['operation'] === 'string' && r['operation'] in MAPPED_ROUTES);
    expect(mapped.length).toBeGreaterThan(20);
    for (const record of mapped) expect(record['mode'], String(record['operation'])).toBe('api2');
    expect(records.filter((r) => r['operation'] === 'favorites.create' || r['operation'] === 'trysoons.create').map((r) => r['mode'])).toEqual(['legacy', 'legacy']);

    expect(seenByApi2.length).toBeGreaterThan(20);
    for (const request of seenByApi2) {
      const [path, query = ''] = request.target.split('?');
      const errors = validateApi2Request({ method: request.method, path: path ?? '', query: Object.fromEntries(new URLSearchParams(query)), headers: request.headers, body: request.body || undefined });
      expect(errors, `${request.method} ${request.target}`).toEqual([]);
      expect(request.target).not.toContain('api_key');
      expect(request.headers['x-bigoven-api-key']).toMatch(/^sandbox-(free|paid)-key$/);
      // miniflare, like the Workers edge, sets CF-Connecting-IP to the client's address.
      expect(request.headers['x-forwarded-for'], 'the peer is the platform\'s CF-Connecting-IP').toBe('127.0.0.1');
    }
    const before = seenByApi2.length;
    const answer = await edge.mf.dispatchFetch(`https://api.bigoven.com/recipes?title_kw=cake&api_key=${FREE}`, { headers: { ...J, 'cf-connecting-ip': '198.51.100.23' } });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    expect(seenByApi2.slice(before).map((r) => r.headers['x-forwarded-for'])).toEqual(['198.51.100.23']);
  });
});

describe('edge entry in workerd: what reaches the upstream, and upstream failures', () => {
  let edge: EdgeGateway;
  let upstream: RecordingUpstream;

  beforeAll(async () => {
    upstream = await startRecordingUpstream((req, res) => {
      if (req.url?.startsWith('/legacy-base/review/1')) return; // never answers
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', connection: 'x-hop', 'x-hop': 'dropped' });
      res.end('{"ok":true}');
    });
    edge = await startEdge({ upstreams: { legacy: { baseUrl: `${upstream.origin}/legacy-base` } }, routes: { 'reviews.get': { timeoutMs: 300 } } });
  }, 60_000);
  afterAll(async () => {
    await edge?.close();
    await upstream?.close();
  });

  it('forwards the normalised target under the base path with X-Forwarded-*, without platform or hop-by-hop headers', async () => {
    const answer = await send(edge.origin, {
      target: `/V1/Recipes/?title_kw=soup&api_key=${FREE}`,
      headers: { ...J, 'x-client': 'kept', 'cf-ray': 'client-sent', connection: 'x-drop-me', 'x-drop-me': '1' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-hop']).toBeUndefined();
    const seen = upstream.requests.at(-1);
    // A search page fill is rendered from the canonical request (what is keyed is what is sent):
    // the document's path and spelling, parameters in catalogue order, defaults explicit.
    expect(seen?.target, 'the canonical request, under the base path').toBe(`/legacy-base/recipes?title_kw=soup&pg=1&rpp=10&api_key=${FREE}`);
    // The platform (miniflare, like the Workers edge) hands the Worker `Accept-Encoding: br, gzip`
    // and negotiates with the client itself: the upstream is asked for gzip, the Worker decodes it,
    // and this client, which asked for no encoding, gets plain bytes without a content-encoding.
    expect(seen?.headers).toMatchObject({ 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'http', 'accept-encoding': 'gzip' });
    // A shared fill carries no header its key does not hold.
    expect(seen?.headers['x-client']).toBeUndefined();
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.json()).toEqual({ ok: true });
    expect(Object.keys(seen?.headers ?? {}).filter((name) => name.startsWith('cf-') || name === 'x-drop-me')).toEqual([]);
  });

  it('answers TRACE with 405 and Allow itself, and never forwards it', async () => {
    const before = upstream.requests.length;
    const answer = await send(edge.origin, { method: 'TRACE', target: `/review/5?api_key=${FREE}`, headers: { ...J, authorization: 'Basic dTpw' } });
    expect(answer.status).toBe(405);
    expect(answer.headers['allow']).toBe('GET, HEAD, POST, PUT, DELETE');
    expect(answer.headers['x-gateway-error']).toBe('method-not-allowed');
    expect(upstream.requests.length).toBe(before);
  });

  it('answers 504 when the upstream does not answer in time, 502 when it cannot be reached', async () => {
    const late = await send(edge.origin, { target: `/review/1?api_key=${FREE}`, headers: J });
    expect(late.status).toBe(504);
    expect(late.headers['x-gateway-error']).toBe('upstream-timeout');
    await upstream.close();
    const gone = await send(edge.origin, { method: 'POST', target: `/favorites?api_key=${FREE}`, headers: USER_JSON, body: '{"rid":1}' });
    expect(gone.status).toBe(502);
    // workerd reports a refused connection like a lost one: the write's outcome is unknown.
    expect(gone.headers['x-gateway-error']).toBe('upstream-reset');
    expect(gone.text()).toMatch(/outcome is unknown/);
  });
});

describe('edge runtime bindings (in-process)', () => {
  it('peer from CF-Connecting-IP or unknown, TLS from the URL scheme, never absolute-form', async () => {
    const { Hono } = await import('hono');
    const { edgeRuntime } = await import('../src/edge/runtime.js');
    const app = new Hono();
    app.get('*', (c) => c.json({ peer: edgeRuntime.arrival(c, 8192).peer, absolute: edgeRuntime.arrival(c, 8192).absoluteForm, signal: edgeRuntime.clientSignal(c) instanceof AbortSignal }));
    expect(await (await app.request('https://gw.example/recipes')).json()).toEqual({ peer: { address: 'unknown', tls: true }, absolute: false, signal: true });
    expect(await (await app.request('http://gw.example/recipes', { headers: { 'cf-connecting-ip': '2001:db8::1' } })).json()).toMatchObject({ peer: { address: '2001:db8::1', tls: false } });
  });
});

describe('edge entry config', () => {
  it('answers 500 and logs the errors when GATEWAY_CONFIG is invalid, naming the key; refuses caFile and trustedProxies; notes ignored keys', async () => {
    const edge = await startEdge({ upstreams: { legacy: { baseUrl: 'ftp://nowhere' } } });
    try {
      const answer = await send(edge.origin, { target: `/recipes?api_key=${FREE}`, headers: J });
      expect(answer.status).toBe(500);
      expect(answer.headers['x-gateway-error']).toBe('internal');
      const logged = await lineContaining(edge, 'invalid gateway config');
      expect(JSON.parse(logged)).toMatchObject({ level: 50, msg: 'invalid gateway config' });
      expect(logged).toContain('upstreams.legacy.baseUrl');

      await edge.reconfigure({ upstreams: { legacy: { baseUrl: 'https://legacy.example', caFile: '/etc/ca.pem' } } });
      expect((await edge.mf.dispatchFetch('http://gateway.example/healthz')).status).toBe(500);
      expect(await lineContaining(edge, 'upstreams.legacy.caFile: is not supported on the edge')).not.toBe('');

      await edge.reconfigure({ upstreams: { legacy: { baseUrl: 'https://legacy.example' } }, trustedProxies: ['10.0.0.0/8'] });
      expect((await edge.mf.dispatchFetch('http://gateway.example/healthz')).status).toBe(500);
      expect(await lineContaining(edge, 'trustedProxies: must be empty on the edge')).not.toBe('');

      await edge.reconfigure({ listen: { port: 8080 }, upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' } } });
      const health = await edge.mf.dispatchFetch('http://gateway.example/healthz');
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      expect(await lineContaining(edge, 'listen is ignored on the edge')).not.toBe('');
    } finally {
      await edge.close();
    }
  }, 60_000);
});

/**
 * The fetch upstream client (src/upstream/fetch-client.ts) keeps the upstream client contract
 * (test/support/upstream-client-contract.ts) on both runtimes it may run on: inside workerd
 * (started by miniflare; a small harness Worker calls the client and answers with what it
 * returned or threw) and on Node's own fetch (called in-process). Beyond the contract, what only
 * a fetch client does: content codings decoded by the runtime (gzip, br, deflate, a gzip bomb),
 * garbage instead of HTTP, and a self-signed https upstream refused.
 *
 * Also measured here, and relied on by the client's content-coding decision: workerd decodes
 * gzip and br but leaves deflate encoded (Node's fetch decodes all three); workerd reports a
 * refused connection like a lost one; workerd does not trust a self-signed certificate unless it
 * is told to.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync, inflateSync } from 'node:zlib';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import type { StartedApi2Sandbox } from '../src/sandbox/api2-start.js';
import { createFetchUpstream } from '../src/upstream/fetch-client.js';
import { describeUpstreamClientContract, runInProcess } from './support/upstream-client-contract.js';
import type { UpstreamCall, UpstreamOutcome } from './support/upstream-client-contract.js';

const ROOT = new URL('..', import.meta.url).pathname;
const TEXT = JSON.stringify({ hello: 'world', list: [1, 2, 3], note: 'x'.repeat(200) });

const WORKERD_ADDS = ['host', 'connection', 'content-length'];
const NODE_FETCH_ADDS = ['host', 'connection', 'content-length', 'user-agent', 'accept', 'accept-language', 'sec-fetch-mode'];

type Call = UpstreamCall;
type Outcome = UpstreamOutcome;

/** The harness Worker: runs one call through createFetchUpstream inside workerd. */
const HARNESS = `
import { createFetchUpstream } from './src/upstream/fetch-client.ts';
export default {
  async fetch(request) {
    const call = await request.json();
    const client = createFetchUpstream({ name: 'legacy', baseUrl: call.base, maxResponseBytes: call.max ?? 1000000 });
    const controller = new AbortController();
    if (call.abortAfterMs !== undefined) setTimeout(() => controller.abort(), call.abortAfterMs);
    try {
      const r = await client.request({
        method: call.method ?? 'GET', target: call.target, headers: call.headers ?? {},
        body: call.body === undefined ? null : Uint8Array.from(call.body, (c) => c.charCodeAt(0)),
        timeoutMs: call.timeoutMs ?? 3000, signal: controller.signal,
      });
      let binary = '';
      for (const byte of r.body) binary += String.fromCharCode(byte);
      return Response.json({ status: r.status, headers: r.headers, body: btoa(binary) });
    } catch (error) {
      if (error && error.name === 'UpstreamError') return Response.json({ failure: error.failure, sent: error.sent, message: error.message });
      return Response.json({ unexpected: String(error) }, { status: 500 });
    }
  },
};`;

let upstream: Server;
let base: string;
let garbage: NetServer;
let garbageBase: string;
let api2: StartedApi2Sandbox;
let mf: Miniflare;
let harnessUrl: URL;
const seen: Array<{ headers: IncomingMessage['headers'] }> = [];

function answer(req: IncomingMessage, res: import('node:http').ServerResponse): void {
  const path = req.url ?? '/';
  if (path.startsWith('/bomb')) {
    res.writeHead(200, { 'content-encoding': 'gzip' });
    res.end(gzipSync(Buffer.alloc(512 * 1024, 0)));
  } else if (path.startsWith('/gzip')) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', etag: '"v1"', vary: 'Accept-Encoding' });
    res.end(req.method === 'HEAD' ? undefined : gzipSync(TEXT));
  } else if (path.startsWith('/br')) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
    res.end(brotliCompressSync(TEXT));
  } else if (path.startsWith('/deflate')) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
    res.end(deflateSync(TEXT));
  } else if (path.startsWith('/compress')) {
    res.writeHead(200, { 'content-encoding': 'compress' });
    res.end('opaque-bytes');
  } else {
    res.writeHead(404);
    res.end('not here');
  }
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    seen.push({ headers: req.headers });
    req.resume().on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

  garbage = createNetServer((socket) => socket.once('data', () => socket.end('THIS IS NOT HTTP\r\n\r\n')));
  await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
  garbageBase = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;

  api2 = await startApi2Sandbox();

  const bundle = await build({
    stdin: { contents: HARNESS, resolveDir: ROOT, loader: 'ts', sourcefile: 'harness.ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
  });
  mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0]?.text ?? '',
    compatibilityDate: '2025-07-01',
    // workerd's own network stack, loopback only, no extra trusted certificate.
    outboundService: { network: { allow: ['local'] } },
    handleRuntimeStdio: () => {}, // workerd prints its internal-error traces; the outcomes are asserted below
  });
  harnessUrl = await mf.ready;
}, 60_000);

afterAll(async () => {
  await mf?.dispose();
  await api2?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
  await new Promise((resolve) => garbage?.close(resolve));
});

async function inWorkerd(call: Call): Promise<Outcome> {
  const response = await fetch(harnessUrl, { method: 'POST', body: JSON.stringify(call) });
  const data = (await response.json()) as { status?: number; headers?: Record<string, string | string[]>; body?: string; failure?: string; sent?: boolean; message?: string; unexpected?: string };
  if (data.unexpected !== undefined) throw new Error(`the client threw something other than an UpstreamError: ${data.unexpected}`);
  if (data.failure !== undefined) return { failure: data.failure, sent: data.sent ?? true, message: data.message ?? '' };
  return { status: data.status ?? 0, headers: data.headers ?? {}, body: Buffer.from(data.body ?? '', 'base64') };
}

const onNode = runInProcess((baseUrl, maxResponseBytes) => createFetchUpstream({ name: 'legacy', baseUrl, maxResponseBytes }));

function ok(outcome: Outcome): Extract<Outcome, { status: number }> {
  if ('failure' in outcome) throw new Error(`expected an answer, got ${outcome.failure}: ${outcome.message}`);
  return outcome;
}
function failed(outcome: Outcome): Extract<Outcome, { failure: string }> {
  if (!('failure' in outcome)) throw new Error(`expected a failure, got status ${outcome.status}`);
  return outcome;
}

describe.each([
  ['workerd', inWorkerd],
  ['node fetch', onNode],
] as const)('fetch upstream client on %s', (runtime, run) => {
  it('gzip: asked upstream only when the client accepts it; the decoded body never carries content-encoding', async () => {
    const asked = ok(await run({ base, target: '/gzip', headers: { 'accept-encoding': 'gzip, deflate, br' } }));
    expect(seen.at(-1)?.headers['accept-encoding']).toBe('gzip');
    expect(asked.body.toString('utf8')).toBe(TEXT);
    expect(asked.headers['content-encoding']).toBeUndefined();
    expect(asked.headers['content-length']).toBe(String(Buffer.byteLength(TEXT)));
    expect(asked.headers['etag'], 'a strong validator of the gzip bytes is weak for the decoded ones').toBe('W/"v1"');
    ok(await run({ base, target: '/gzip', headers: { 'accept-encoding': 'br;q=1, gzip;q=0' } }));
    expect(seen.at(-1)?.headers['accept-encoding']).toBe('identity');
    // The gateway's one negotiation (src/request/encoding.ts): x-gzip is gzip, the higher weight counts.
    ok(await run({ base, target: '/gzip', headers: { 'accept-encoding': 'x-gzip;q=0, gzip' } }));
    expect(seen.at(-1)?.headers['accept-encoding'], 'gzip accepted by name after x-gzip;q=0').toBe('gzip');
    const head = ok(await run({ base, target: '/gzip', method: 'HEAD', headers: { 'accept-encoding': 'gzip' } }));
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.headers['content-length']).toBeUndefined();
  });

  it('br is decoded like gzip; deflate ends either decoded or still labelled, never mislabelled', async () => {
    const br = ok(await run({ base, target: '/br' }));
    expect(br.body.toString('utf8')).toBe(TEXT);
    expect(br.headers['content-encoding']).toBeUndefined();
    const deflate = ok(await run({ base, target: '/deflate' }));
    if (runtime === 'workerd') {
      // Measured: workerd does not decode deflate, so the bytes and their label pass through.
      expect(deflate.headers['content-encoding']).toBe('deflate');
      expect(inflateSync(deflate.body).toString('utf8')).toBe(TEXT);
    } else {
      expect(deflate.headers['content-encoding']).toBeUndefined();
      expect(deflate.body.toString('utf8')).toBe(TEXT);
    }
    const unknown = ok(await run({ base, target: '/compress' }));
    expect(unknown.headers['content-encoding']).toBe('compress');
    expect(unknown.body.toString('utf8')).toBe('opaque-bytes');
  });

  it('too-large counts the decoded bytes (no gzip bomb)', async () => {
    expect(failed(await run({ base, target: '/bomb', headers: { 'accept-encoding': 'gzip' }, max: 100_000 }))).toMatchObject({ failure: 'too-large' });
  });

  it('garbage instead of HTTP is a failure, never an answer', async () => {
    const outcome = failed(await run({ base: garbageBase, target: '/x' }));
    expect(['protocol', 'reset']).toContain(outcome.failure);
    expect(outcome.sent).toBe(true);
  });

  it('an https upstream with a self-signed certificate is refused: verification is on', async () => {
    const outcome = failed(await run({ base: api2.origin, target: '/recipes' }));
    expect(['connect', 'reset']).toContain(outcome.failure);
  });
});

// Measured: workerd says "Network connection lost." for a refused connection too, so the client
// cannot prove nothing was sent there: reset, sent. Each runtime's fetch adds its own transport headers.
const FETCH = { acceptEncoding: 'negotiated' } as const;
describeUpstreamClientContract('the fetch client in workerd', { ...FETCH, addsHeaders: WORKERD_ADDS, refused: { failure: 'reset', sent: true } }, inWorkerd);
describeUpstreamClientContract("the fetch client on Node's fetch", { ...FETCH, addsHeaders: NODE_FETCH_ADDS, refused: { failure: 'connect', sent: false } }, onNode);

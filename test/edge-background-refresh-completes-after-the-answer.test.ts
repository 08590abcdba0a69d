/**
 * On workerd, work the gateway starts for a request but does not make the client wait for (a
 * stale-while-revalidate refresh of a search page, a shadow comparison) is handed to the
 * execution context's `waitUntil`: without it the runtime may cut that work once the answer is
 * sent, and the stale page would never be refreshed.
 *
 * Proved with the bundled edge entry in a real workerd (miniflare): a stale page is answered at
 * once while its refresh is still waiting on a slow upstream; the refresh then completes after
 * the answer (the upstream's answer is read whole and stored), and the next request reads the
 * refreshed page.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEdgeWorker } from './support/workerd.js';

const SEARCH = '/recipes?title_kw=soup&api_key=k';

let upstream: Server;
let mf: Miniflare;
let origin: string;
/** Upstream calls for the search page, in order; each answers its generation number. */
let calls = 0;
/** How long the upstream holds the answer of each call (by generation). */
const holdMs: Record<number, number> = { 2: 1_500 };
/** Generations whose answer the upstream has finished writing. */
const written = new Set<number>();

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const generation = ++calls;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ generation, target: req.url }), () => written.add(generation));
    }, holdMs[generation] ?? 0);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const legacy = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const config = {
    upstreams: { legacy: { baseUrl: legacy } },
    routes: { 'recipes.search': { cache: { ttlMs: 300, staleWhileRevalidateMs: 600_000, staleIfErrorMs: 0 } } },
    observability: { hashKey: 'edge-background-test-key' },
  };
  ({ mf, origin } = await startEdgeWorker(config));
}, 60_000);
afterAll(async () => {
  await mf?.dispose();
  await new Promise((resolve) => upstream?.close(resolve));
});

async function search(): Promise<{ cache: string | null; generation: number }> {
  const res = await fetch(`${origin}${SEARCH}`, { headers: { accept: 'application/json' } });
  const body = (await res.json()) as { generation: number };
  return { cache: res.headers.get('x-cache'), generation: body.generation };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(condition(), what).toBe(true);
}

it('a stale page is answered at once, and its refresh completes after the answer and is served next', async () => {
  expect(await search()).toEqual({ cache: 'MISS', generation: 1 });
  await new Promise((resolve) => setTimeout(resolve, 600)); // past the page's 300 ms TTL

  const stale = await search();
  expect(stale).toEqual({ cache: 'STALE', generation: 1 });
  expect(calls, 'the stale answer started one refresh').toBe(2);
  expect(written.has(2), 'the client was answered before the refresh was').toBe(false);

  await until(() => written.has(2), 'the upstream wrote the refresh answer');
  // The refreshed page is stored once the Worker has read that answer: the next requests read it.
  let next = await search();
  for (let i = 0; i < 40 && next.generation === 1; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    next = await search();
  }
  expect(next.generation, 'the refresh outlived the answer that started it and was stored').toBeGreaterThanOrEqual(2);
}, 60_000);

/** Single requests outside the measured load: the probe of a target's answer, and the fill of the cache gateway's cache. */
import { Agent, request } from 'undici';
import { REQUEST_HEADERS } from './pages.js';

export type ProbeResult = { readonly status: number; readonly bytes: number; readonly xCache: string | undefined };

/** The probes' connection pool; closed at the end of a run and made anew for the next (`--runs`). */
let agent: Agent | undefined;

export async function probe(url: string): Promise<ProbeResult> {
  agent ??= new Agent({ connections: 64, keepAliveTimeout: 2000 });
  const response = await request(url, { method: 'GET', headers: { ...REQUEST_HEADERS }, dispatcher: agent, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const body = await response.body.arrayBuffer();
  const xCache = response.headers['x-cache'];
  return { status: response.statusCode, bytes: body.byteLength, xCache: Array.isArray(xCache) ? xCache.join(', ') : xCache };
}

export async function closeProbes(): Promise<void> {
  const closing = agent;
  agent = undefined;
  await closing?.close();
}

/** Pages requested (each stored) of those planned, failed; `full`: the first page filled was evicted (the bound reached). */
export type CacheFill = { readonly pages: number; readonly planned: number; readonly failed: number; readonly full: boolean; readonly seconds: number };

const fillTarget = (index: number) => `/recipes?title_kw=bench-fill-${index}&pg=1&rpp=50&api_key=bench-key`;

/**
 * Distinct search pages (distinct `title_kw`), each a MISS the gateway stores, 16 at a time, a
 * little more than the bound holds; starts no request after `budgetMs` (smoke runs fill only part).
 * The cache is full when the first page filled has been evicted (a probe of it is a MISS again).
 */
export async function fillCache(origin: string, bound: { pageBytes: number; maxBytes: number; maxEntries: number }, budgetMs: number): Promise<CacheFill> {
  const started = Date.now();
  // Each entry costs at least its body, so this many pages overflow the byte bound (+10 %).
  const planned = Math.ceil(Math.min(bound.maxEntries, bound.maxBytes / bound.pageBytes) * 1.1);
  let next = 0;
  let pages = 0;
  let failed = 0;
  const worker = async () => {
    while (next < planned && Date.now() < started + budgetMs) {
      const answer = await probe(origin + fillTarget(next++)).catch(() => null);
      if (answer?.status !== 200) failed += 1;
      pages += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, planned) }, worker));
  const first = await probe(origin + fillTarget(0)).catch(() => null);
  return { pages, planned, failed, full: first?.xCache === 'MISS', seconds: (Date.now() - started) / 1000 };
}

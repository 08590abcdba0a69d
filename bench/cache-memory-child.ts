/**
 * Child (--expose-gc, its own process so the figure is the cache's): 100,000 distinct 2 KB pages
 * into a PageCache capped at 10 MB; reports the heap and external memory left after full collections.
 */
import { PageCache } from '../src/cache/page-cache.js';
import type { StoredAnswer } from '../src/cache/types.js';
import { runChild } from './ipc.js';

const PAGES = 100_000;
const CAP = 10 * 1024 * 1024;
const PAGE_BYTES = 2048;

function settle(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

// The gateway's default entry bound (lru-cache sizes its index arrays by it); the byte cap governs here.
const cache = new PageCache({ maxEntries: 10_000, maxBytes: CAP });
const policy = { ttlMs: 3_600_000, staleWhileRevalidateMs: 0, staleIfErrorMs: 0 };
const before = settle();
for (let i = 0; i < PAGES; i++) {
  const body = new Uint8Array(PAGE_BYTES);
  body[0] = i & 0xff;
  const answer: StoredAnswer = { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', vary: 'Accept' }, setCookie: [], body };
  const key = JSON.stringify(['recipes.search', 'legacy', 'json', 'identity', 'any', null, `page ${i}`, null, null, null, null, null, false, 1, 10]);
  await cache.serve({ key, flightKey: key, policy, bypass: false, mayReadStored: true, group: null, source: { produce: async () => answer, refresh: async () => answer }, learn: () => undefined, storable: () => true });
}
const grewBytes = settle() - before;
export type CacheMemory = typeof info;
const info = { pages: PAGES, capBytes: CAP, entries: cache.size.entries, storedBytes: cache.size.bytes, grewBytes, evicted: cache.counters.evicted };
runChild(() => Promise.resolve({ info, close: () => Promise.resolve() }));

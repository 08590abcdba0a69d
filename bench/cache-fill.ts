/**
 * Filling the cache-hit gateway's page cache to its byte bound before its RSS is read: distinct
 * search pages (distinct `title_kw`), each a MISS stored by the gateway, sent with a bounded
 * concurrency, a little more than the bound holds. The cache is full when the first page filled
 * has been evicted (a probe of it is a MISS again).
 */
import { inBatches, probe } from './probe.js';

export interface CacheFill {
  /** Pages requested (and stored) to fill the cache. */
  readonly pages: number;
  readonly planned: number;
  readonly failed: number;
  /** The first page filled was evicted: the cache reached its bound. */
  readonly full: boolean;
  readonly seconds: number;
}

export interface FillOptions {
  readonly origin: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly pageBytes: number;
  readonly maxBytes: number;
  readonly maxEntries: number;
  readonly concurrency: number;
  /** Gives up starting requests after this long (smoke runs fill only part). */
  readonly budgetMs: number;
}

const fillTarget = (index: number) => `/recipes?title_kw=bench-fill-${index}&pg=1&rpp=50&api_key=bench-key`;

export async function fillCache(options: FillOptions): Promise<CacheFill> {
  const started = Date.now();
  // Each entry costs at least its body, so this many pages overflow the byte bound (+10 %).
  const planned = Math.ceil(Math.min(options.maxEntries, options.maxBytes / options.pageBytes) * 1.1);
  let failed = 0;
  const pages = await inBatches(planned, options.concurrency, started + options.budgetMs, async (index) => {
    const answer = await probe(options.origin + fillTarget(index), options.headers).catch(() => null);
    if (!answer || answer.status !== 200) failed += 1;
  });
  const first = await probe(options.origin + fillTarget(0), options.headers).catch(() => null);
  return {
    pages,
    planned,
    failed,
    full: first?.xCache === 'MISS',
    seconds: (Date.now() - started) / 1000,
  };
}

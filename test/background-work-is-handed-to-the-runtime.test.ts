/**
 * Work a request starts that its answer does not wait for is handed to the runtime's `defer`
 * (edge: the execution context's `waitUntil`): the stale page's refresh and the shadow comparison
 * are each given, as a promise that settles only once the work is done (the page stored, the
 * comparison recorded). The workerd test (test/edge-background-refresh-completes-after-the-answer.test.ts)
 * shows what this buys on the edge.
 */
import { describe, expect, it, vi } from 'vitest';
import { PageCache } from '../src/cache/page-cache.js';
import type { StoredAnswer } from '../src/cache/types.js';
import { ShadowComparator } from '../src/traffic/shadow.js';
import type { ShadowAnswer, ShadowRecord } from '../src/traffic/shadow.js';

const page = (text: string): StoredAnswer => ({ status: 200, headers: { 'content-type': 'application/json' }, setCookie: [], body: new TextEncoder().encode(text) });
const json = (value: unknown): ShadowAnswer => ({ status: 200, contentType: 'application/json', contentEncoding: null, body: new TextEncoder().encode(JSON.stringify(value)) });

describe('background work and the runtime', () => {
  it('a stale page is served at once and its refresh is deferred until the new page is stored', async () => {
    let now = 0;
    const cache = new PageCache({ maxEntries: 10, maxBytes: 64 * 1024, now: () => now });
    const policy = { ttlMs: 10, staleWhileRevalidateMs: 1_000, staleIfErrorMs: 0 };
    let release: (answer: StoredAnswer) => void = () => undefined;
    const deferred: Array<Promise<unknown>> = [];
    const request = (produce: () => Promise<StoredAnswer>) => ({
      key: 'k', flightKey: 'k', policy, bypass: false, mayReadStored: true, group: null,
      source: { produce, refresh: produce }, learn: () => undefined, storable: () => true, defer: (work: Promise<unknown>) => deferred.push(work),
    });
    await cache.serve(request(async () => page('one')));
    expect(deferred).toHaveLength(0);
    now = 50;
    const served = cache.serve(request(() => new Promise((resolve) => (release = resolve))));
    expect(served).toMatchObject({ outcome: 'STALE' });
    expect(deferred, 'the refresh was handed over').toHaveLength(1);
    let settled = false;
    void deferred[0]!.then(() => (settled = true));
    await Promise.resolve();
    expect(settled, 'not settled before the upstream answered').toBe(false);
    release(page('two'));
    await deferred[0];
    const fresh = cache.serve(request(async () => page('three')));
    expect(new TextDecoder().decode((fresh as { answer: StoredAnswer }).answer.body), 'stored by the time the deferred work settled').toBe('two');
  });

  it('a shadow comparison is deferred until its record is written', async () => {
    const records: ShadowRecord[] = [];
    const shadow = new ShadowComparator({ maxConcurrent: 4, maxDecodedBytes: 1024 * 1024, onRecord: (record) => records.push(record) });
    const deferred: Array<Promise<unknown>> = [];
    let answer: ((value: ShadowAnswer) => void) | undefined;
    shadow.offer(
      { operation: 'recipes.search', requestId: 'r1', losses: [], ignore: new Set(), primary: json({ a: 1 }), candidate: () => new Promise((resolve) => (answer = resolve)) },
      (work) => deferred.push(work),
    );
    expect(deferred).toHaveLength(1);
    await vi.waitFor(() => expect(answer, 'api2 was called').toBeDefined());
    expect(records, 'nothing recorded before api2 answered').toHaveLength(0);
    answer!(json({ a: 1 }));
    await deferred[0];
    expect(records).toMatchObject([{ outcome: 'equal', requestId: 'r1' }]);
  });
});

/**
 * Replicas A and B over one real redis-server: once a review write through A is answered, no
 * replica serves a page from before it (the write waits for Redis to take its invalidation; a hit
 * checks the shared generation). A replica that got the invalidation message drops its pages, so
 * they stay dropped when Redis dies right after. A write is answered, never 5xx, when Redis is
 * out or too slow to take its invalidation, and one log line says so each time, and
 * /metrics counts it (gateway_cache_invalidations_unacknowledged_total).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { basic, send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import { redisOverrides, redisServerPerTest, waitReady } from './support/fleet.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';

const J = { accept: 'application/json', host: 'api.bigoven.com' };
const ALICE = basic('alice', 'alice-pass');
const fleet = redisServerPerTest();
const { cleanup, replicas } = fleet;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An upstream whose search page carries the number of reviews written so far. */
async function reviewCountingUpstream() {
  const state = { reviews: 0 };
  const upstream = await startRecordingUpstream((req, res) => {
    if (req.method === 'POST') {
      state.reviews += 1;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ ReviewID: state.reviews }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', vary: 'Accept' });
    res.end(JSON.stringify({ ResultCount: state.reviews, Results: [], SpellSuggest: null }));
  });
  cleanup.push(() => upstream.close());
  return { upstream, state };
}

const search = (gateway: TestGateway) => send(gateway.origin, { target: '/recipes?title_kw=soup&api_key=good-key', headers: J });
const reviews = (res: { json(): unknown }) => (res.json() as { ResultCount: number }).ResultCount;
const writeReview = (gateway: TestGateway) =>
  send(gateway.origin, {
    method: 'POST',
    target: '/reviews?api_key=good-key',
    headers: { ...J, authorization: ALICE, 'content-type': 'application/json' },
    body: JSON.stringify({ rid: 7, rating: 5, makeagain: 'yes', message: 'Again', totaltime: 20, activetime: 5 }),
  });

describe('a write through one replica, then a read through another', () => {
  it('never serves a page from before a write once the write is answered (100 pairs)', async () => {
    const { upstream } = await reviewCountingUpstream();
    const [a, b] = await replicas(upstream.origin);
    // Both replicas hold the page in L1 before the first write.
    expect(reviews(await search(a))).toBe(0);
    expect((await search(b)).headers['x-cache']).toBe('HIT');
    const stale: string[] = [];
    let hits = 0;
    for (let i = 1; i <= 100; i += 1) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      const written = await writeReview(writer);
      expect(written.status).toBe(200);
      const read = await search(reader);
      if (reviews(read) !== i) stale.push(`pair ${i}: ${reviews(read)} reviews, ${read.headers['x-cache']}`);
      // The reader's page is in its L1 again; the writer reads it too (a HIT through L1 or L2).
      const again = await search(writer);
      if (reviews(again) !== i) stale.push(`pair ${i} (writer): ${reviews(again)} reviews, ${again.headers['x-cache']}`);
      if (again.headers['x-cache'] === 'HIT') hits += 1;
    }
    expect(stale).toEqual([]);
    // The pages were still served from the cache between writes (the check is not "never cache").
    expect(hits).toBeGreaterThan(90);
  });

  it('answers a write only once redis took its invalidation, so the other replica never serves the older page', async () => {
    const { upstream } = await reviewCountingUpstream();
    const [a, b] = await replicas(upstream.origin);
    expect(reviews(await search(b))).toBe(0);
    expect((await search(b)).headers['x-cache']).toBe('HIT');
    // Redis holds write commands (the generation bump) for 500 ms; reads (B's generation check) go on.
    await fleet.redis.client().call('CLIENT', 'PAUSE', '500', 'WRITE');
    const written = await writeReview(a);
    expect(written.status).toBe(200);
    const read = await search(b);
    expect(`${reviews(read)} reviews, ${read.headers['x-cache']}`).toBe('1 reviews, MISS');
  });

  it('keeps a page dropped by the invalidation message dropped when redis dies right after the write', async () => {
    const { upstream } = await reviewCountingUpstream();
    const [a, b] = await replicas(upstream.origin);
    expect(reviews(await search(b))).toBe(0);
    expect((await search(b)).headers['x-cache']).toBe('HIT');
    expect((await writeReview(a)).status).toBe(200);
    // The message reaches B within milliseconds; a loaded machine gets a second.
    await sleep(1000);
    await fleet.redis.kill();
    // B can no longer ask Redis for the generation: only the message it got can have dropped the page.
    const read = await search(b);
    expect(read.status).toBe(200);
    expect(reviews(read)).toBe(1);
  });

  it('answers a write when redis is out or too slow to take the invalidation, within the command timeout, and says so', async () => {
    const { upstream, state } = await reviewCountingUpstream();
    const folder = mkdtempSync(join(tmpdir(), 'fleet-inval-'));
    cleanup.push(async () => rmSync(folder, { recursive: true, force: true }));
    const log = join(folder, 'usage.log');
    const a = await startTestGateway(upstream.origin, { ...redisOverrides(fleet.redis, { commandTimeoutMs: 300 }), observability: { log: { destination: log } } });
    cleanup.push(() => a.close());
    await waitReady(a);
    expect((await search(a)).status).toBe(200);
    // Slow: every write command waits 3 s, ten times the command timeout.
    await fleet.redis.client().call('CLIENT', 'PAUSE', '3000', 'WRITE');
    const started = Date.now();
    const slow = await writeReview(a);
    expect(slow.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2500);
    await fleet.redis.client().call('CLIENT', 'UNPAUSE').catch(() => undefined);
    // Out: answered at once.
    await fleet.redis.kill();
    const out = await writeReview(a);
    expect(out.status).toBe(200);
    expect(state.reviews).toBe(2);
    // The replica's own pages are dropped all the same.
    expect(reviews(await search(a))).toBe(2);
    await a.close();
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    const unacknowledged = lines.filter((line) => line['msg'] === 'cache-invalidation');
    // One line per write at least; a replay of the first when Redis came back, cut short by the
    // kill, says so too (a busy machine can order them that way).
    expect(unacknowledged.length).toBeGreaterThanOrEqual(2);
    expect(new Set(unacknowledged.map((line) => `${String(line['acknowledged'])} ${typeof line['reason']}`))).toEqual(new Set(['false string']));
  });

  it('counts a write answered before a paused redis took its invalidation in /metrics, and one it took not at all', async () => {
    const { upstream } = await reviewCountingUpstream();
    const a = await startTestGateway(upstream.origin, { ...redisOverrides(fleet.redis, { commandTimeoutMs: 300 }), observability: { admin: { listen: { host: '127.0.0.1', port: 0 } } } });
    cleanup.push(() => a.close());
    await waitReady(a);
    const unacknowledged = async (): Promise<string | undefined> => {
      const metrics = await send(a.adminOrigin!, { target: '/metrics' });
      expect(metrics.status).toBe(200);
      return /^gateway_cache_invalidations_unacknowledged_total\{tier="redis"\} (\S+)$/m.exec(metrics.text())?.[1];
    };
    expect((await writeReview(a)).status).toBe(200);
    expect(await unacknowledged(), 'a write redis took').toBe('0');
    // Redis holds every write command for 3 s, ten times the command timeout: the write is answered without it.
    await fleet.redis.client().call('CLIENT', 'PAUSE', '3000', 'WRITE');
    expect((await writeReview(a)).status).toBe(200);
    await fleet.redis.client().call('CLIENT', 'UNPAUSE').catch(() => undefined);
    expect(await unacknowledged(), 'the write answered while redis was paused').toBe('1');
  });
});

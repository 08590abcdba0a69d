/**
 * Replicas A and B and one real redis-server: a page filled through A is a HIT through B; a miss
 * shared by both costs one upstream call; a review written through A changes the page B serves
 * next; api2-mode reviews.delete through B finds the recipe of a review created through A; Redis
 * killed under load gives no client error, and the shared tier comes back with the server.
 */
import { describe, expect, it } from 'vitest';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { basic, send } from './support/http.js';
import type { RawResponse } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import { redisOverrides, redisServerPerTest, startReplicas } from './support/fleet.js';
import type { TestGateway } from './support/gateway.js';

// Behind a load balancer every replica sees the public Host (part of the forwarded request, so of the page key).
const J = { accept: 'application/json', host: 'api.bigoven.com' };
const fleet = redisServerPerTest();
const { cleanup, replicas } = fleet;

/** An upstream that counts searches per query and answers after `delayMs`. */
async function countingUpstream(delayMs: number) {
  const state = { version: 1 };
  const upstream = await startRecordingUpstream((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', vary: 'Accept' });
      res.end(JSON.stringify({ ResultCount: state.version, Results: [], SpellSuggest: null }));
    }, delayMs);
  });
  cleanup.push(() => upstream.close());
  const calls = (kw: string) => upstream.requests.filter((r) => r.target.includes(`title_kw=${kw}`)).length;
  return { upstream, state, calls };
}

const search = (gateway: TestGateway, kw: string, key = 'good-key') => send(gateway.origin, { target: `/recipes?title_kw=${kw}&api_key=${key}`, headers: J });

const ALICE = basic('alice', 'alice-pass');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('replicas sharing one redis', () => {
  it('serves a page filled through A as a HIT through B, with one upstream call', async () => {
    const counting = await countingUpstream(0);
    const [a, b] = await replicas(counting.upstream.origin);
    const first = await search(a, 'soup');
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    const second = await search(b, 'soup');
    expect(second.status).toBe(200);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body.equals(first.body)).toBe(true);
    expect(counting.calls('soup')).toBe(1);
  });

  it('answers 50 simultaneous misses spread over A and B with one upstream call', async () => {
    const counting = await countingUpstream(300);
    const [a, b] = await replicas(counting.upstream.origin);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => search(i % 2 === 0 ? a : b, 'stew')));
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 50 }, () => 200));
    expect(new Set(answers.map((res) => res.text())).size).toBe(1);
    expect(counting.calls('stew')).toBe(1);
  });

  it('costs one upstream call for a page missed on both replicas, its api key known first-hand to A and through redis to B', async () => {
    const counting = await countingUpstream(300);
    const [a, b] = await replicas(counting.upstream.origin);
    expect((await search(a, 'warm', 'first-hand-key')).status).toBe(200);
    // A tells every replica the key was answered 200 (without waiting): until Redis holds it.
    const client = fleet.redis.client();
    const deadline = Date.now() + 10_000;
    while ((await client.keys('*v1:f:*')).length === 0 && Date.now() < deadline) await sleep(20);
    const [fromA, fromB] = await Promise.all([search(a, 'chowder', 'first-hand-key'), search(b, 'chowder', 'first-hand-key')]);
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect(fromB.text()).toBe(fromA.text());
    expect(counting.calls('chowder')).toBe(1);
  });

  it('shows a review written through A in the page B serves next', async () => {
    const legacy = await startLegacySandbox();
    cleanup.push(() => legacy.close());
    const [a, b] = await replicas(legacy.origin);
    const target = '/recipes?title_kw=soup&rpp=5&api_key=sandbox-free-key';
    const before = await send(a.origin, { target, headers: J });
    expect(before.status).toBe(200);
    expect((await send(b.origin, { target, headers: J })).headers['x-cache']).toBe('HIT');
    const recipe = (before.json() as { Results: Array<{ RecipeID: number; ReviewCount: number }> }).Results[0];
    if (!recipe) throw new Error('the sandbox has no soup');
    const written = await send(a.origin, {
      method: 'POST',
      target: '/reviews?api_key=sandbox-free-key',
      headers: { ...J, authorization: ALICE, 'content-type': 'application/json' },
      body: JSON.stringify({ rid: recipe.RecipeID, rating: 5, makeagain: 'yes', message: 'Shared', totaltime: 20, activetime: 5 }),
    });
    expect(written.status).toBeLessThan(300);
    const after = await send(b.origin, { target, headers: J });
    expect(after.status).toBe(200);
    const again = (after.json() as { Results: Array<{ RecipeID: number; ReviewCount: number }> }).Results.find((r) => r.RecipeID === recipe.RecipeID);
    expect(again?.ReviewCount).toBe(recipe.ReviewCount + 1);
  });

  it('keeps answering with redis killed under load, then uses it again once it is back', async () => {
    const counting = await countingUpstream(5);
    const [a, b] = await replicas(counting.upstream.origin);
    const answers: RawResponse[] = [];
    const failures: unknown[] = [];
    let running = true;
    let n = 0;
    const client = async (): Promise<void> => {
      while (running && n < 2_000) {
        n += 1;
        const gateway = n % 2 === 0 ? a : b;
        await search(gateway, `load${n % 20}`).then((res) => answers.push(res), (error: unknown) => failures.push(error));
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, client));
    await sleep(300);
    await fleet.redis.kill();
    const killedAt = answers.length;
    // The replica noticed (its Redis is marked required): not ready, but still answering.
    const noticed = Date.now() + 10_000;
    while ((await send(a.origin, { target: '/readyz' })).status !== 503 && Date.now() < noticed) await sleep(20);
    expect((await send(a.origin, { target: '/readyz' })).status).toBe(503);
    await sleep(500);
    const duringOutage = answers.slice(killedAt);
    await fleet.redis.restart();
    await sleep(300);
    running = false;
    await load;
    expect(failures).toEqual([]);
    expect(answers.filter((res) => res.status !== 200).map((res) => res.status)).toEqual([]);
    expect(duringOutage.length).toBeGreaterThan(0);
    expect(duringOutage.some((res) => res.headers['x-cache'] === 'MISS' || res.headers['x-cache'] === 'HIT')).toBe(true);
    // Back: a page filled through A is a HIT through B again (the restarted server is empty).
    const deadline = Date.now() + 20_000;
    let shared = false;
    for (let i = 0; !shared && Date.now() < deadline; i += 1) {
      await search(a, `back${i}`);
      shared = (await search(b, `back${i}`)).headers['x-cache'] === 'HIT';
      if (!shared) await sleep(100);
    }
    expect(shared).toBe(true);
  });

  it('answers every request while redis is paused (slow) and after it is flushed', async () => {
    const counting = await countingUpstream(0);
    const [a, b] = await replicas(counting.upstream.origin, { commandTimeoutMs: 200 });
    expect((await search(a, 'before')).status).toBe(200);
    // Every command waits 1.5 s: slower than the command timeout, so the tier is out meanwhile.
    await fleet.redis.client().call('CLIENT', 'PAUSE', '1500', 'ALL');
    const slow = await Promise.all(Array.from({ length: 10 }, (_, i) => search(i % 2 === 0 ? a : b, `slow${i}`)));
    expect(slow.map((res) => res.status)).toEqual(Array.from({ length: 10 }, () => 200));
    await fleet.redis.client().call('CLIENT', 'UNPAUSE').catch(() => undefined);
    await fleet.redis.client().flushall();
    const flushed = await Promise.all([search(a, 'before'), search(b, 'before'), search(b, 'after')]);
    expect(flushed.map((res) => res.status)).toEqual([200, 200, 200]);
  });
});

describe('replicas sharing one redis, api2 mode', () => {
  it('deletes through B a review created through A (the review memory is shared)', async () => {
    const { startApi2Sandbox } = await import('../src/sandbox/api2-start.js');
    const { PLACEHOLDER_PHOTO_URL } = await import('../src/sandbox/dataset/dataset.js');
    const { MAPPED_ROUTES } = await import('./support/api2-mode.js');
    const api2 = await startApi2Sandbox();
    const legacy = await startLegacySandbox();
    cleanup.push(() => api2.close(), () => legacy.close());
    const pair = await startReplicas(legacy.origin, {
      ...redisOverrides(fleet.redis),
      upstreams: { legacy: { baseUrl: legacy.origin }, api2: { baseUrl: api2.origin, caFile: api2.caFile } },
      api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
      routes: MAPPED_ROUTES,
    });
    cleanup.push(() => pair[0].close(), () => pair[1].close());
    const [a, b] = pair;
    const user = { ...J, authorization: ALICE };
    const created = await send(a.origin, {
      method: 'POST',
      target: '/reviews?api_key=sandbox-free-key',
      headers: { ...user, 'content-type': 'application/json' },
      body: JSON.stringify({ rid: 7, rating: 4, makeagain: 'yes', message: 'Made it twice', totaltime: 30, activetime: 10 }),
    });
    expect(created.status).toBe(200);
    const id = (created.json() as { ReviewID: number }).ReviewID;
    const deleted = await send(b.origin, { method: 'DELETE', target: `/review/${id}?api_key=sandbox-free-key`, headers: user });
    expect(deleted.status).toBeLessThan(300);
    const gone = await send(b.origin, { target: `/review/${id}?api_key=sandbox-free-key`, headers: J });
    expect(gone.status).toBe(404);
  });
});

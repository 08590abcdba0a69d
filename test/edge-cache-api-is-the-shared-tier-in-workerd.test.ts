/**
 * The edge L2: with `cache.edgeCacheApi`, the Worker keeps search pages in the Workers Cache API
 * behind the same tier port as Redis on Node. Run in a real workerd (miniflare): a page stored by
 * one gateway instance is a HIT for a fresh instance (empty L1) without calling the upstream; a
 * review write hides the stored pages from every instance.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import type { MiniflareOptions } from 'miniflare';
import { beforeAll, describe, expect, it } from 'vitest';
import { EDGE_BUNDLE_OPTIONS } from './support/edge-bundle.js';
import { basic, send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import { closedAfterEachTest } from './support/cleanup.js';

const ROOT = new URL('..', import.meta.url).pathname;
const J = { accept: 'application/json' };
let script = '';
const cleanup = closedAfterEachTest();

beforeAll(async () => {
  const bundle = await build({ ...EDGE_BUNDLE_OPTIONS, entryPoints: [`${ROOT}src/edge/worker.ts`] });
  script = bundle.outputFiles[0]?.text ?? '';
}, 60_000);

describe('edge shared tier (Workers Cache API)', () => {
  it('serves a page stored by one instance to a fresh one, and hides it after a review write', async () => {
    const upstream = await startRecordingUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(req.method === 'GET' ? '{"ResultCount":1,"Results":[],"SpellSuggest":null}' : '{"ReviewID":1}');
    });
    cleanup.push(() => upstream.close());
    const cacheDir = await mkdtemp(join(tmpdir(), 'edge-cache-'));
    cleanup.push(() => rm(cacheDir, { recursive: true, force: true }));
    const config = (instance: number) => ({
      upstreams: { legacy: { baseUrl: upstream.origin } },
      legacyHosts: ['api.bigoven.com'],
      cache: { edgeCacheApi: true },
      // A different document per instance: the Worker builds a new gateway (an empty L1).
      api2: { noPhotoImageUrl: `https://images.example/none-${instance}.png` },
    });
    const options = (instance: number): MiniflareOptions => ({
      modules: true,
      script,
      compatibilityDate: '2025-07-01',
      host: '127.0.0.1',
      port: 0,
      cachePersist: cacheDir,
      bindings: { GATEWAY_CONFIG: JSON.stringify(config(instance)), GATEWAY_HASH_KEY: 'edge-tier-test-hash-key' },
      outboundService: { network: { allow: ['local'] } },
    });
    const mf = new Miniflare(options(1));
    cleanup.push(() => mf.dispose());
    let origin = (await mf.ready).origin;
    const searches = () => upstream.requests.filter((r) => r.method === 'GET').length;
    const search = () => send(origin, { target: '/recipes?title_kw=soup&api_key=edge-key', headers: J });

    expect((await search()).headers['x-cache']).toBe('MISS');
    expect((await search()).headers['x-cache']).toBe('HIT');
    await mf.setOptions(options(2));
    origin = (await mf.ready).origin;
    const fresh = await search();
    expect(fresh.status).toBe(200);
    expect(fresh.headers['x-cache']).toBe('HIT');
    expect(searches()).toBe(1);

    const review = await send(origin, {
      method: 'POST',
      target: '/reviews?api_key=edge-key',
      headers: { ...J, authorization: basic('alice', 'alice-pass'), 'content-type': 'application/json' },
      body: JSON.stringify({ rid: 7, rating: 5, makeagain: 'yes', message: 'Good', totaltime: 10, activetime: 5 }),
    });
    expect(review.status).toBe(200);
    await mf.setOptions(options(3));
    origin = (await mf.ready).origin;
    expect((await search()).headers['x-cache']).toBe('MISS');
    expect(searches()).toBe(2);
  }, 120_000);
});

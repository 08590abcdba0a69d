/**
 * Holes in what the search page cache may store or serve: a page that sets a cookie (one
 * Set-Cookie header as well as several), a page in another content coding than the fill asked
 * for, and an api key given twice (which key the page would be checked against is not the one
 * the upstream would judge).
 */
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basic, send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { closedAfterEachTest } from './support/cleanup.js';

const J = { accept: 'application/json' };
const PAGE = '/recipes?title_kw=soup&api_key=good-key';
const BODY = JSON.stringify({ ResultCount: 1, Results: [], SpellSuggest: null });
const cleanup = closedAfterEachTest();

async function gatewayBefore(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const upstream = await startRecordingUpstream(handler);
  cleanup.push(() => upstream.close());
  const gateway: TestGateway = await startTestGateway(upstream.origin);
  cleanup.push(() => gateway.close());
  return { upstream, gateway };
}

describe('the search page cache never stores', () => {
  it('a page answered with one Set-Cookie header, and the cookie reaches each client', async () => {
    const { upstream, gateway } = await gatewayBefore((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'set-cookie': 'session=s1; Path=/' });
      res.end(BODY);
    });
    const first = await send(gateway.origin, { target: PAGE, headers: J });
    const second = await send(gateway.origin, { target: PAGE, headers: J });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers['x-cache']).toBe('MISS');
    expect(second.headers['set-cookie']).toEqual(['session=s1; Path=/']);
    expect(upstream.requests).toHaveLength(2);
  });

  it('a page in a content coding the fill did not ask for', async () => {
    // The upstream gzips whatever the fill accepted; a client that sent no Accept-Encoding gets a fill asking for identity.
    const { upstream, gateway } = await gatewayBefore((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' });
      res.end(gzipSync(BODY));
    });
    const first = await send(gateway.origin, { target: PAGE, headers: J });
    const second = await send(gateway.origin, { target: PAGE, headers: J });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(upstream.requests[0]?.headers['accept-encoding']).toBe('identity');
    expect(second.headers['x-cache']).toBe('MISS');
    expect(upstream.requests).toHaveLength(2);
  });
});

describe('the search page cache never keeps', () => {
  it('an answer whose upstream call started before a write that drops its page', async () => {
    const state = { reviews: 0 };
    const { gateway } = await gatewayBefore((req, res) => {
      if (req.method === 'POST') {
        state.reviews += 1;
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end('{"ReviewID":1}');
        return;
      }
      // The page is read when the call arrives and answered later: the write lands in between.
      const body = JSON.stringify({ ResultCount: state.reviews, Results: [], SpellSuggest: null });
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(body);
      }, 400);
    });
    const reviews = (res: { json(): unknown }) => (res.json() as { ResultCount: number }).ResultCount;
    const early = send(gateway.origin, { target: PAGE, headers: J });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const written = await send(gateway.origin, {
      method: 'POST',
      target: '/reviews?api_key=good-key',
      headers: { ...J, authorization: basic('alice', 'alice-pass'), 'content-type': 'application/json' },
      body: JSON.stringify({ rid: 7, rating: 5, makeagain: 'yes', message: 'Again', totaltime: 20, activetime: 5 }),
    });
    expect(written.status).toBe(200);
    expect(reviews(await early)).toBe(0);
    const after = await send(gateway.origin, { target: PAGE, headers: J });
    expect(`${reviews(after)} reviews, ${after.headers['x-cache']}`).toBe('1 reviews, MISS');
  });
});

describe('the search page cache never serves', () => {
  it('a request with its api key given twice: refused with 400 naming api_key, nothing sent upstream', async () => {
    const { upstream, gateway } = await gatewayBefore((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(BODY);
    });
    expect((await send(gateway.origin, { target: PAGE, headers: J })).status).toBe(200);
    const twice = await send(gateway.origin, { target: `${PAGE}&api_key=other-key`, headers: J });
    expect(twice.status).toBe(400);
    expect(twice.text()).toContain('api_key');
    expect(twice.headers['x-cache']).toBeUndefined();
    expect(upstream.requests).toHaveLength(1);
  });
});

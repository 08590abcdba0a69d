/**
 * One regression per finding of the canonical-request review (the cache held one view of a
 * request, the backend was sent another), each through a real gateway in front of the real
 * sandbox legacy backend or a recording upstream.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { closedAfterEachTest } from './support/cleanup.js';

const cleanup = closedAfterEachTest();

async function gatewayBeforeSandbox(): Promise<TestGateway> {
  const sandbox = await startLegacySandbox();
  cleanup.push(() => sandbox.close());
  const gateway = await startTestGateway(sandbox.origin);
  cleanup.push(() => gateway.close());
  return gateway;
}

const PAGE = '/recipes?pg=3&rpp=17&api_key=sandbox-free-key';
const JSON_ACCEPT = { accept: 'application/json' };

describe('cache poisoning found in the canonical-request review', () => {
  it('a page filled for Accept-Encoding: * is never served gzip to a client that accepts only identity', async () => {
    const gateway = await gatewayBeforeSandbox();
    const star = await send(gateway.origin, { target: PAGE, headers: { ...JSON_ACCEPT, 'accept-encoding': '*' } });
    expect(star.status).toBe(200);
    expect(star.headers['content-encoding']).toBe('gzip');
    for (const acceptEncoding of ['identity', undefined, 'gzip;q=0', 'br, gzip;q=0', '*;q=0']) {
      const headers: Record<string, string> = { ...JSON_ACCEPT, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) };
      const plain = await send(gateway.origin, { target: PAGE, headers });
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body[0]).toBe(0x7b); // '{'
      expect(JSON.parse(plain.body.toString('utf8'))).toEqual(JSON.parse(gunzipSync(star.body).toString('utf8')));
    }
  });

  it('GZIP, x-gzip and gzip with a low weight are all gzip, and share one page', async () => {
    const gateway = await gatewayBeforeSandbox();
    const outcomes: string[] = [];
    for (const acceptEncoding of ['GZIP', 'x-gzip', 'br, gzip;q=0.1', 'gzip, deflate']) {
      const res = await send(gateway.origin, { target: PAGE, headers: { ...JSON_ACCEPT, 'accept-encoding': acceptEncoding } });
      expect(res.headers['content-encoding']).toBe('gzip');
      outcomes.push(String(res.headers['x-cache']));
    }
    expect(outcomes).toEqual(['MISS', 'HIT', 'HIT', 'HIT']);
  });

  it('a concurrent miss with If-None-Match never turns another client\'s answer into a bodiless 304', async () => {
    const upstream = await startRecordingUpstream((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', etag: '"v1"' });
        res.end('{"ResultCount":1,"Results":[]}');
      }, 300);
    });
    cleanup.push(() => upstream.close());
    const gateway = await startTestGateway(upstream.origin);
    cleanup.push(() => gateway.close());
    const [conditional, plain] = await Promise.all([
      send(gateway.origin, { target: PAGE, headers: { ...JSON_ACCEPT, 'if-none-match': '*' } }),
      send(gateway.origin, { target: PAGE, headers: JSON_ACCEPT }),
    ]);
    expect(plain.status).toBe(200);
    expect(plain.body.toString('utf8')).toBe('{"ResultCount":1,"Results":[]}');
    expect(conditional.status).toBe(304);
    expect(conditional.headers['etag']).toBe('"v1"');
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]?.headers['if-none-match']).toBeUndefined();
  });

  it('answers If-Modified-Since from the stored page\'s Last-Modified, never sending it on the fill', async () => {
    const upstream = await startRecordingUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' });
      res.end('{"ResultCount":2,"Results":[]}');
    });
    cleanup.push(() => upstream.close());
    const gateway = await startTestGateway(upstream.origin);
    cleanup.push(() => gateway.close());
    const later = await send(gateway.origin, { target: PAGE, headers: { ...JSON_ACCEPT, 'if-modified-since': 'Tue, 02 Jan 2024 00:00:00 GMT' } });
    expect(later.status).toBe(304);
    expect(later.headers['last-modified']).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
    const earlier = await send(gateway.origin, { target: PAGE, headers: { ...JSON_ACCEPT, 'if-modified-since': 'Sun, 31 Dec 2023 00:00:00 GMT' } });
    expect(earlier.status).toBe(200);
    expect(earlier.headers['x-cache']).toBe('HIT');
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]?.headers['if-modified-since']).toBeUndefined();
  });

  it('forwards exactly what it keys: case variants in the document\'s spelling, unknown parameters dropped', async () => {
    const upstream = await startRecordingUpstream();
    cleanup.push(() => upstream.close());
    const gateway = await startTestGateway(upstream.origin);
    cleanup.push(() => gateway.close());
    const first = await send(gateway.origin, { target: '/recipes?TITLE_KW=soup&callback=evil&API_KEY=k&Pg=2', headers: JSON_ACCEPT });
    const second = await send(gateway.origin, { target: '/v1/Recipes/?api_key=k&pg=2&title_kw=soup&rpp=10', headers: JSON_ACCEPT });
    expect(first.status).toBe(200);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(upstream.requests.map((r) => r.target)).toEqual(['/recipes?title_kw=soup&pg=2&rpp=10&api_key=k']);
  });

  it('refuses a search parameter given twice instead of forwarding what it did not key', async () => {
    const upstream = await startRecordingUpstream();
    cleanup.push(() => upstream.close());
    const gateway = await startTestGateway(upstream.origin);
    cleanup.push(() => gateway.close());
    for (const target of ['/recipes?title_kw=X&pg=1&title_kw=EVIL&api_key=k', '/recipes?title_kw=X&TITLE_KW=EVIL&api_key=k']) {
      const res = await send(gateway.origin, { target, headers: JSON_ACCEPT });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ Message: 'The request is invalid: title_kw must be given once.' });
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses a JSON body that spells one field twice, and forwards the body it validated', async () => {
    const upstream = await startRecordingUpstream();
    cleanup.push(() => upstream.close());
    const gateway = await startTestGateway(upstream.origin);
    cleanup.push(() => gateway.close());
    const headers = { ...JSON_ACCEPT, 'content-type': 'application/json', authorization: 'Basic YWxpY2U6YWxpY2UtcGFzcw==' };
    const twice = await send(gateway.origin, {
      method: 'POST',
      target: '/reviews?api_key=k',
      headers,
      body: '{"rid":1,"Rating":5,"rating":9,"makeagain":"yes","message":"good"}',
    });
    expect(twice.status).toBe(400);
    expect(twice.json()).toMatchObject({ Message: 'The request is invalid: rating must be given once.' });
    expect(upstream.requests).toHaveLength(0);

    const once = await send(gateway.origin, {
      method: 'POST',
      target: '/reviews?api_key=k&rating=1',
      headers,
      body: '{"RID":1,"Rating":5,"makeagain":"yes","message":"good","extra":"dropped"}',
    });
    expect(once.status).toBe(200);
    expect(upstream.requests[0]?.target).toBe('/reviews?api_key=k');
    expect(upstream.requests[0]?.body.toString('utf8')).toBe('{"rid":1,"rating":5,"makeagain":"yes","message":"good"}');
  });

  it('refuses unknown parameters naming them when unknownParameters is reject', async () => {
    const upstream = await startRecordingUpstream();
    cleanup.push(() => upstream.close());
    const gateway = await startTestGateway(upstream.origin, { unknownParameters: 'reject' });
    cleanup.push(() => gateway.close());
    const res = await send(gateway.origin, { target: '/recipes?title_kw=soup&callback=evil&api_key=k', headers: JSON_ACCEPT });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ Message: 'The request is invalid: callback is not a parameter of this operation.' });
    const markup = await send(gateway.origin, { target: '/recipes?title_kw=soup&%3Cscript%3E=1&api_key=k', headers: JSON_ACCEPT });
    expect(markup.status).toBe(400);
    expect(markup.text()).not.toContain('<script>');
    expect(upstream.requests).toHaveLength(0);
  });
});

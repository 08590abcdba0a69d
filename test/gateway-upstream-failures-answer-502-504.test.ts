/**
 * Upstream failures answer 502/504 with a legacy error naming the reason; writes are sent once
 * and never retried; a client that goes away cancels the upstream request.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { basic, send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { freePort } from './support/started-process.js';
import { waitFor } from './support/wait.js';
import { closedAfterEachTest } from './support/cleanup.js';

const cleanup = closedAfterEachTest();

async function gatewayFor(upstream: RecordingUpstream | string, overrides = {}): Promise<TestGateway> {
  const gateway = await startTestGateway(typeof upstream === 'string' ? upstream : upstream.origin, overrides);
  cleanup.push(() => gateway.close());
  return gateway;
}

async function recording(handler: Parameters<typeof startRecordingUpstream>[0]): Promise<RecordingUpstream> {
  const upstream = await startRecordingUpstream(handler);
  cleanup.push(() => upstream.close());
  return upstream;
}

const json = { accept: 'application/json' };

describe('upstream failures', () => {
  it('answers 502 when the upstream refuses connections', async () => {
    const gateway = await gatewayFor(`http://127.0.0.1:${await freePort()}`);
    const res = await send(gateway.origin, { target: '/recipes?api_key=k', headers: json });
    expect(res.status).toBe(502);
    expect(res.headers['x-gateway-error']).toBe('upstream-unreachable');
    expect((res.json() as { Message: string }).Message).toMatch(/could not connect to upstream 'legacy'.*recipes\.search/);
  });

  it('answers 504 when the upstream does not answer within the route timeout', async () => {
    const upstream = await recording(() => {
      /* never answers */
    });
    const gateway = await gatewayFor(upstream, { routes: { 'recipes.search': { timeoutMs: 200 } } });
    const res = await send(gateway.origin, { target: '/recipes?api_key=k', headers: json });
    expect(res.status).toBe(504);
    expect(res.headers['x-gateway-error']).toBe('upstream-timeout');
    expect((res.json() as { Message: string }).Message).toContain('within 200 ms');
  });

  it('answers 504 when the upstream sends headers and then stalls the body', async () => {
    const upstream = await recording((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"Results":');
    });
    const gateway = await gatewayFor(upstream, { timeouts: { defaultMs: 200 } });
    const res = await send(gateway.origin, { target: '/recipes?api_key=k', headers: json });
    expect(res.status).toBe(504);
  });

  it('sends a write exactly once and tells the client its outcome is unknown when the connection breaks', async () => {
    const upstream = await recording((req) => {
      req.socket.destroy();
    });
    const gateway = await gatewayFor(upstream);
    const res = await send(gateway.origin, {
      method: 'POST',
      target: '/reviews?api_key=k',
      headers: { ...json, authorization: basic('alice', 'alice-pass'), 'content-type': 'application/json' },
      body: JSON.stringify({ rid: 1, rating: 5, makeagain: 'yes', message: 'great' }),
    });
    expect(res.status).toBe(502);
    expect((res.json() as { Message: string }).Message).toContain('outcome is unknown');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(upstream.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('sends a timed-out write once and answers 504 with an unknown outcome, never a fake success', async () => {
    const upstream = await recording(() => {
      /* never answers */
    });
    const gateway = await gatewayFor(upstream, { timeouts: { defaultMs: 200 } });
    const res = await send(gateway.origin, {
      method: 'DELETE',
      target: '/review/5?api_key=k',
      headers: { ...json, authorization: basic('alice', 'alice-pass') },
    });
    expect(res.status).toBe(504);
    expect((res.json() as { Message: string }).Message).toContain('outcome is unknown');
    expect(upstream.requests).toHaveLength(1);
  });

  it('answers 502 when the upstream answer is larger than the configured maximum', async () => {
    const upstream = await recording((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.alloc(4096, 97));
    });
    const gateway = await gatewayFor(upstream, { limits: { maxResponseBodyBytes: 1024 } });
    const res = await send(gateway.origin, { target: '/recipes?api_key=k', headers: json });
    expect(res.status).toBe(502);
    expect(res.headers['x-gateway-error']).toBe('upstream-too-large');
  });

  it('cancels the upstream request when the client goes away', async () => {
    const upstream = await recording(() => {
      /* never answers */
    });
    const gateway = await gatewayFor(upstream, { timeouts: { defaultMs: 10_000 } });
    const url = new URL(gateway.origin);
    // Not a search page: a shared cache fill goes on for the other clients waiting on it.
    const client = httpRequest({ host: url.hostname, port: url.port, path: '/review/1?api_key=k', agent: false });
    client.on('error', () => undefined);
    client.end();
    await waitFor(() => upstream.requests.length === 1, 3000);
    client.destroy();
    await waitFor(() => upstream.requests[0]?.clientAborted === true, 3000);
    expect(upstream.requests[0]?.clientAborted).toBe(true);
  });
});

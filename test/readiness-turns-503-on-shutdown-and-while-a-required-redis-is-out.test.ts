/**
 * /readyz tells load balancers whether to send traffic: 503 from the moment a stop is asked for,
 * while the listener keeps serving for limits.readyDelayMs (so they notice), then the drain; 503
 * while a Redis marked required is out, requests still answered (L1 only). /healthz stays liveness.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { startGateway } from '../src/node/server.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import { send } from './support/http.js';
import { freePort } from './support/started-process.js';
import { closedAfterEachTest } from './support/cleanup.js';

const J = { accept: 'application/json' };
const cleanup = closedAfterEachTest();

async function gatewayWith(overrides: Partial<GatewayConfigInput>) {
  const upstream = await startRecordingUpstream();
  cleanup.push(() => upstream.close());
  const parsed = parseConfig({ listen: { host: '127.0.0.1', port: 0 }, upstreams: { legacy: { baseUrl: upstream.origin } }, observability: { log: { destination: '/dev/null' } }, ...overrides });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const gateway = await startGateway(parsed.config);
  cleanup.push(() => gateway.close());
  return gateway;
}

describe('readiness', () => {
  it('answers 503 as soon as the stop begins, keeps serving for readyDelayMs, then drains', async () => {
    const gateway = await gatewayWith({ limits: { readyDelayMs: 3_000 } });
    const ready = await send(gateway.httpOrigin, { target: '/readyz' });
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });

    const drained = gateway.drain(5_000);
    const notReady = await send(gateway.httpOrigin, { target: '/readyz' });
    expect(notReady.status).toBe(503);
    expect(notReady.json()).toEqual({ status: 'not-ready', reasons: ['shutting down'] });
    // Still serving while load balancers notice: liveness and real requests, on new connections.
    expect((await send(gateway.httpOrigin, { target: '/healthz' })).status).toBe(200);
    expect((await send(gateway.httpOrigin, { target: '/recipes?title_kw=soup&api_key=k', headers: J })).status).toBe(200);

    const outcome = await drained;
    expect(outcome.drained).toBe(true);
    await expect(send(gateway.httpOrigin, { target: '/healthz' })).rejects.toThrow();
  });

  it('answers 503 while a required redis is out, and every request still gets its answer', async () => {
    const port = await freePort();
    const gateway = await gatewayWith({ cache: { redis: { url: `redis://127.0.0.1:${port}`, required: true, hashKey: 'readiness-test-hash-key' } } });
    const notReady = await send(gateway.httpOrigin, { target: '/readyz' });
    expect(notReady.status).toBe(503);
    expect(notReady.json()).toEqual({ status: 'not-ready', reasons: ['redis out'] });
    expect((await send(gateway.httpOrigin, { target: '/healthz' })).status).toBe(200);
    const first = await send(gateway.httpOrigin, { target: '/recipes?title_kw=soup&api_key=k', headers: J });
    const second = await send(gateway.httpOrigin, { target: '/recipes?title_kw=soup&api_key=k', headers: J });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.headers['x-cache'], second.headers['x-cache']]).toEqual(['MISS', 'HIT']);
  });

  it('stays ready with an optional redis out', async () => {
    const port = await freePort();
    const gateway = await gatewayWith({ cache: { redis: { url: `redis://127.0.0.1:${port}`, hashKey: 'readiness-test-hash-key' } } });
    expect((await send(gateway.httpOrigin, { target: '/readyz' })).status).toBe(200);
  });
});

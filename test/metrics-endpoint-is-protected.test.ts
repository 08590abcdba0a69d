/**
 * Prometheus metrics: counted by operation, mode and status class, upstream errors and timeouts
 * by upstream, cache counters registered; and never open to every client of the gateway: behind a
 * bearer token on the main listener, or only on the admin listener, or not served at all.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import { startGateway } from '../src/node/server.js';
import type { RunningGateway } from '../src/node/server.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { send } from './support/http.js';

const FREE = 'sandbox-free-key';
const TOKEN = 'metrics-bearer-token-0001';

let sandbox: StartedLegacySandbox;
const running: RunningGateway[] = [];

beforeAll(async () => {
  sandbox = await startLegacySandbox();
});
afterAll(async () => {
  await Promise.all(running.map((g) => g.close()));
  await sandbox.close();
});

async function gateway(observability: GatewayConfigInput['observability'], extra: Partial<GatewayConfigInput> = {}): Promise<RunningGateway> {
  const parsed = parseConfig({
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: { legacy: { baseUrl: sandbox.origin } },
    ...extra,
    observability: { log: { enabled: false }, ...observability },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const started = await startGateway(parsed.config);
  running.push(started);
  return started;
}

async function scrape(url: string, token = TOKEN): Promise<string> {
  const res = await send(url, { target: new URL(url).pathname, headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics on the main listener, behind a bearer token', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await gateway({ admin: { bearerToken: TOKEN } });
  });

  it('refuses a scrape without the token or with a wrong one', async () => {
    expect((await send(gw.httpOrigin, { target: '/metrics' })).status).toBe(401);
    expect((await send(gw.httpOrigin, { target: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await send(gw.httpOrigin, { target: '/metrics', headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
  });

  it('counts requests and latencies by operation, mode and status class', async () => {
    // Three different pages: three upstream calls even with the search cache on.
    for (let i = 1; i <= 3; i++) expect((await send(gw.httpOrigin, { target: `/recipes?api_key=${FREE}&rpp=${i}` })).status).toBe(200);
    expect((await send(gw.httpOrigin, { target: `/reviews?rid=abc&api_key=${FREE}` })).status).toBe(400);
    expect((await send(gw.httpOrigin, { target: `/a/../b` })).status).toBe(400);
    const text = await scrape(`${gw.httpOrigin}/metrics`);
    expect(sample(text, 'gateway_requests_total{operation="recipes.search",mode="legacy",status_class="2xx"}')).toBe(3);
    expect(sample(text, 'gateway_requests_total{operation="reviews.list",mode="gateway",status_class="4xx"}')).toBe(1);
    expect(sample(text, 'gateway_requests_total{operation="unrouted",mode="gateway",status_class="4xx"}')).toBe(1);
    expect(sample(text, 'gateway_request_duration_seconds_count{operation="recipes.search",mode="legacy",status_class="2xx"}')).toBe(3);
    expect(sample(text, 'gateway_upstream_duration_seconds_count{upstream="legacy"}')).toBe(3);
    expect(text).toContain('# TYPE gateway_cache_requests_total counter');
    expect(text).toContain('# TYPE gateway_upstream_errors_total counter');
    expect(text).toContain('# TYPE gateway_upstream_timeouts_total counter');
    expect(text).toContain('process_cpu_seconds_total');
  });
});

describe('metrics on the admin listener only', () => {
  it('serves them on the admin address, and not on the client-facing one', async () => {
    const gw = await gateway({ admin: { listen: { host: '127.0.0.1', port: 0 } } });
    expect(gw.adminOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(gw.metricsUrl).toBe(`${gw.adminOrigin}/metrics`);
    await send(gw.httpOrigin, { target: `/recipes?api_key=${FREE}&rpp=1` });
    const onMain = await send(gw.httpOrigin, { target: '/metrics' });
    expect(onMain.text()).not.toContain('gateway_requests_total');
    const text = await scrape(`${gw.adminOrigin}/metrics`, 'unused');
    expect(sample(text, 'gateway_requests_total{operation="recipes.search",mode="legacy",status_class="2xx"}')).toBe(1);
    expect(sample(text, 'gateway_requests_total{operation="uncatalogued",mode="legacy",status_class="4xx"}')).toBe(1);
  });

  it('requires the bearer token there too when one is set', async () => {
    const gw = await gateway({ admin: { listen: { host: '127.0.0.1', port: 0 }, bearerToken: TOKEN } });
    expect((await send(gw.adminOrigin!, { target: '/metrics' })).status).toBe(401);
    await scrape(`${gw.adminOrigin}/metrics`);
  });
});

describe('metrics without protection configured', () => {
  it('are not served at all, and the operator is told', async () => {
    const gw = await gateway({});
    expect(gw.metricsUrl).toBeUndefined();
    expect(gw.notes.join('\n')).toContain('metrics are not served');
    const res = await send(gw.httpOrigin, { target: '/metrics' });
    expect(res.text()).not.toContain('gateway_requests_total');
  });
});

/** A plain upstream on 127.0.0.1 with the given handler, closed after the file's tests. */
async function localUpstream(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstreamServers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const upstreamServers: Server[] = [];
afterAll(async () => {
  for (const server of upstreamServers) server.closeAllConnections();
  await Promise.all(upstreamServers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

describe('upstream errors and timeouts by upstream', () => {
  it('counts a timeout as an upstream error and as a timeout of that upstream', async () => {
    const silent = await localUpstream(() => {
      // never answers
    });
    const gw = await gateway({ admin: { bearerToken: TOKEN } }, { upstreams: { legacy: { baseUrl: silent } }, timeouts: { defaultMs: 200 } });
    expect((await send(gw.httpOrigin, { target: `/recipes?api_key=${FREE}` })).status).toBe(504);
    const text = await scrape(`${gw.httpOrigin}/metrics`);
    expect(sample(text, 'gateway_upstream_errors_total{upstream="legacy",reason="timeout"}')).toBe(1);
    expect(sample(text, 'gateway_upstream_timeouts_total{upstream="legacy"}')).toBe(1);
    expect(sample(text, 'gateway_requests_total{operation="recipes.search",mode="legacy",status_class="5xx"}')).toBe(1);
  });
});

describe('upstream pool gauges', () => {
  it('show requests in flight on the upstream while it answers, and the open idle connection after', async () => {
    const waiting: Array<() => void> = [];
    // Answers each request only when the test releases it.
    const held = await localUpstream((_req, res) => {
      waiting.push(() => res.end('{}'));
    });
    const gw = await gateway({ admin: { bearerToken: TOKEN } }, { upstreams: { legacy: { baseUrl: held } } });

    const pending = [1, 2].map((i) => send(gw.httpOrigin, { target: `/recipes?api_key=${FREE}&rpp=${i}` }));
    while (waiting.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const during = await scrape(`${gw.httpOrigin}/metrics`);
    expect(sample(during, 'gateway_upstream_requests{upstream="legacy",state="in-flight"}')).toBe(2);
    expect(sample(during, 'gateway_upstream_requests{upstream="legacy",state="waiting"}')).toBe(0);
    expect(sample(during, 'gateway_upstream_connections{upstream="legacy",state="open"}')).toBe(2);
    expect(sample(during, 'gateway_upstream_connections{upstream="legacy",state="idle"}')).toBe(0);

    for (const release of waiting.splice(0)) release();
    expect((await Promise.all(pending)).map((r) => r.status)).toEqual([200, 200]);
    const after = await scrape(`${gw.httpOrigin}/metrics`);
    expect(sample(after, 'gateway_upstream_requests{upstream="legacy",state="in-flight"}')).toBe(0);
    expect(sample(after, 'gateway_upstream_connections{upstream="legacy",state="open"}')).toBe(2);
    expect(sample(after, 'gateway_upstream_connections{upstream="legacy",state="idle"}')).toBe(2);
  });
});

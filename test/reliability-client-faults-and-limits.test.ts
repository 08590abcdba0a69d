/**
 * Client faults and the request limits of `limits` (src/config/schema.ts), against a real gateway
 * whose upstreams are fault upstreams on loopback (src/sandbox/faults.ts):
 * - a client that goes away mid-request, while the gateway waits on the upstream (legacy write,
 *   api2 read) or mid-response leaves nothing behind, and the upstream request is cancelled;
 * - slowloris: headers or a body sent too slowly get 408 in the legacy error shape, on time;
 * - a target over maxUrlLength gets 414, headers over maxHeaderBytes 431 (the legacy shape, JSON
 *   when the request asked for it), a body over maxRequestBodyBytes 413 — a chunked one before
 *   the client has finished sending it; none of them reaches the upstream.
 *
 * (test/gateway-upstream-failures-answer-502-504.test.ts already shows a GET's upstream request
 * cancelled when its client goes away.)
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import { startFaultUpstream } from '../src/sandbox/faults.js';
import type { StartedFaultUpstream } from '../src/sandbox/faults.js';
import { isLegacyError, openTcpSockets, rawExchange, recordUnhandled, startRigGateway } from './reliability-support.js';
import { waitFor } from './support/wait.js';
import type { RigGateway } from './reliability-support.js';

const HEADERS_TIMEOUT_MS = 500;
const REQUEST_TIMEOUT_MS = 1000;
const MAX_BODY = 256 * 1024;
const MAX_URL = 2048;
const MAX_HEADER_BYTES = 8192;
const BASIC = 'Basic YWxpY2U6YWxpY2UtcGFzcw==';

let legacy: StartedFaultUpstream;
let api2: StartedFaultUpstream;
let gateway: RigGateway;
let port: number;

beforeAll(async () => {
  legacy = await startFaultUpstream({ mode: 'ok' });
  api2 = await startFaultUpstream({ mode: 'silent', tls: true });
  gateway = await startRigGateway({
    upstreams: { legacy: { baseUrl: legacy.origin, keepAliveTimeoutMs: 100 }, api2: { baseUrl: api2.origin, caFile: api2.caFile, keepAliveTimeoutMs: 100 } },
    routes: { 'reviews.get': { mode: 'api2' } },
    timeouts: { defaultMs: 10_000 },
    limits: {
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      maxRequestBodyBytes: MAX_BODY,
      maxUrlLength: MAX_URL,
      maxHeaderBytes: MAX_HEADER_BYTES,
      maxResponseBodyBytes: 4 * 1024 * 1024,
    },
  });
  port = Number(new URL(gateway.origin).port);
});
afterAll(async () => {
  await gateway.close();
  await legacy.close();
  await api2.close();
});

async function settled(baseline: number): Promise<void> {
  await waitFor(() => gateway.running.stats().connections === 0 && gateway.running.stats().inFlight === 0, 3000, 'gateway connections closed');
  await waitFor(() => legacy.openSockets() === 0 && api2.openSockets() === 0, 3000, 'upstream sockets closed');
  await waitFor(() => openTcpSockets() <= baseline, 3000, `open sockets back to ${baseline}`);
}

function head(method: string, target: string, headers: Record<string, string>): string {
  return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
}

describe('clients that go away', () => {
  it('mid-request body: nothing reaches the upstream, nothing stays open, nothing is unhandled', async () => {
    const baseline = openTcpSockets();
    const before = legacy.requests.length;
    const unhandled = recordUnhandled();
    try {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(head('POST', '/grocerylist?api_key=k', { authorization: BASIC, 'content-type': 'application/json', 'content-length': '1000' }) + '{"name":"fl');
      await waitFor(() => gateway.running.stats().inFlight === 1, 2000, 'request in flight');
      socket.destroy();
      await settled(baseline);
      expect(legacy.requests.length).toBe(before);
      expect(unhandled.seen).toEqual([]);
    } finally {
      unhandled.stop();
    }
  });

  it('while the gateway waits on api2 (a read): the api2 request is cancelled at once', async () => {
    const baseline = openTcpSockets();
    const unhandled = recordUnhandled();
    try {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(head('GET', '/review/7?api_key=k', { accept: 'application/json' }));
      await waitFor(() => api2.requests.length === 1, 3000, 'api2 reached');
      const left = Date.now();
      socket.destroy();
      await waitFor(() => api2.requests[0]?.aborted === true, 2000, 'api2 request cancelled');
      expect(Date.now() - left).toBeLessThan(1000);
      await settled(baseline);
      expect(unhandled.seen).toEqual([]);
    } finally {
      unhandled.stop();
    }
  });

  it('while the gateway waits on legacy (a write): the upstream request is cancelled at once', async () => {
    legacy.setMode('silent');
    const baseline = openTcpSockets();
    const before = legacy.requests.length;
    const unhandled = recordUnhandled();
    try {
      const body = '{"name":"flour","quantity":"1 lb"}';
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(head('POST', '/grocerylist?api_key=k', { authorization: BASIC, 'content-type': 'application/json', 'content-length': String(body.length) }) + body);
      await waitFor(() => legacy.requests.length === before + 1, 3000, 'legacy reached');
      socket.destroy();
      await waitFor(() => legacy.requests[before]?.aborted === true, 2000, 'legacy request cancelled');
      expect(legacy.requests.slice(before).filter((r) => r.method === 'POST')).toHaveLength(1);
      await settled(baseline);
      expect(unhandled.seen).toEqual([]);
    } finally {
      unhandled.stop();
      legacy.setMode('ok');
    }
  });

  it('mid-response (a 1 MiB answer, one chunk read): nothing stays open, nothing is unhandled', async () => {
    const big = await startFaultUpstream({ mode: 'oversized-body', bodyBytes: 1024 * 1024 });
    const bigGateway = await startRigGateway({ upstreams: { legacy: { baseUrl: big.origin, keepAliveTimeoutMs: 100 } }, limits: { maxResponseBodyBytes: 4 * 1024 * 1024 } });
    const baseline = openTcpSockets();
    const unhandled = recordUnhandled();
    try {
      for (let round = 0; round < 5; round++) {
        const socket = connect(Number(new URL(bigGateway.origin).port), '127.0.0.1');
        socket.on('error', () => undefined);
        socket.write(head('GET', `/review/${round + 1}?api_key=k`, { accept: 'application/json' }));
        await new Promise<void>((resolve) => socket.once('data', () => resolve()));
        socket.destroy();
      }
      await waitFor(() => bigGateway.running.stats().connections === 0 && bigGateway.running.stats().inFlight === 0, 3000, 'gateway connections closed');
      await waitFor(() => big.openSockets() === 0, 3000, 'upstream sockets closed');
      await waitFor(() => openTcpSockets() <= baseline, 3000, `open sockets back to ${baseline}`);
      expect(big.requests).toHaveLength(5);
      expect(unhandled.seen).toEqual([]);
    } finally {
      unhandled.stop();
      await bigGateway.close();
      await big.close();
    }
  });
});

describe('slow clients (slowloris)', () => {
  it('headers sent a line at a time past headersTimeoutMs get 408 in the legacy shape, and the connection is closed', async () => {
    const before = legacy.requests.length;
    const lines = ['GET /recipes?api_key=k HTTP/1.1\r\n', 'Host: 127.0.0.1\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: ${'a'.repeat(10)}\r\n`)];
    const answer = await rawExchange(gateway.origin, lines, { gapMs: 100, timeoutMs: 5000 });
    expect(answer.status).toBe(408);
    expect(answer.headers['x-gateway-error']).toBe('request-timeout');
    expect(answer.headers['connection']).toBe('close');
    expect(isLegacyError(answer.headers['content-type'], answer.body)).toBe(true);
    // Node checks every headersTimeoutMs / 4: the answer comes at most that much after the deadline.
    expect(answer.ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 20);
    expect(answer.ms).toBeLessThan(HEADERS_TIMEOUT_MS + HEADERS_TIMEOUT_MS / 4 + 700);
    expect(legacy.requests.length).toBe(before);
  });

  it('a body sent too slowly for requestTimeoutMs gets 408, in JSON when the request asked for JSON', async () => {
    const before = legacy.requests.length;
    const parts = [head('POST', '/grocerylist?api_key=k', { accept: 'application/json', authorization: BASIC, 'content-type': 'application/json', 'content-length': '200' }), ...Array.from({ length: 40 }, () => '     ')];
    const answer = await rawExchange(gateway.origin, parts, { gapMs: 100, timeoutMs: 5000 });
    expect(answer.status).toBe(408);
    expect(answer.headers['content-type']).toMatch(/json/);
    expect(isLegacyError(answer.headers['content-type'], answer.body)).toBe(true);
    expect(answer.ms).toBeLessThan(REQUEST_TIMEOUT_MS + HEADERS_TIMEOUT_MS / 4 + 700);
    expect(legacy.requests.length).toBe(before);
  });
});

describe('request limits', () => {
  it('a target over maxUrlLength gets 414 in the legacy shape, never forwarded', async () => {
    const before = legacy.requests.length;
    const answer = await rawExchange(gateway.origin, head('GET', `/recipes?title_kw=${'a'.repeat(MAX_URL)}&api_key=k`, { accept: 'application/json' }));
    expect(answer.status).toBe(414);
    expect(answer.headers['x-gateway-error']).toBe('bad-target');
    expect(isLegacyError(answer.headers['content-type'], answer.body)).toBe(true);
    expect(legacy.requests.length).toBe(before);
  });

  it.each([
    ['JSON', { accept: 'application/json' }, /json/],
    ['XML', {}, /xml/],
  ] as const)('headers over maxHeaderBytes get 431 in the legacy shape (%s), never forwarded', async (_format, accept, type) => {
    const before = legacy.requests.length;
    const answer = await rawExchange(gateway.origin, head('GET', '/recipes?api_key=k', { ...accept, 'x-padding': 'p'.repeat(MAX_HEADER_BYTES + 100) }));
    expect(answer.status).toBe(431);
    expect(answer.headers['x-gateway-error']).toBe('headers-too-large');
    expect(answer.headers['content-type']).toMatch(type);
    expect(isLegacyError(answer.headers['content-type'], answer.body)).toBe(true);
    expect(answer.body).toContain(String(MAX_HEADER_BYTES));
    expect(legacy.requests.length).toBe(before);
  });

  it('a target longer than maxHeaderBytes itself gets 431 (the request line counts), never forwarded', async () => {
    const before = legacy.requests.length;
    const answer = await rawExchange(gateway.origin, head('GET', `/recipes?title_kw=${'a'.repeat(MAX_HEADER_BYTES)}`, { accept: 'application/json' }));
    expect(answer.status).toBe(431);
    expect(isLegacyError(answer.headers['content-type'], answer.body)).toBe(true);
    expect(legacy.requests.length).toBe(before);
  });

  it('a declared body over maxRequestBodyBytes gets 413 in the legacy shape, never forwarded', async () => {
    const before = legacy.requests.length;
    const answer = await rawExchange(
      gateway.origin,
      head('POST', '/grocerylist?api_key=k', { accept: 'application/json', authorization: BASIC, 'content-type': 'application/json', 'content-length': String(MAX_BODY + 1) }),
    );
    expect(answer.status).toBe(413);
    expect(answer.headers['x-gateway-error']).toBe('body-too-large');
    expect(isLegacyError(answer.headers['content-type'], answer.body)).toBe(true);
    expect(legacy.requests.length).toBe(before);
  });

  it('a chunked body over maxRequestBodyBytes gets 413 before the client has finished sending it', async () => {
    const before = legacy.requests.length;
    const chunk = Buffer.alloc(32 * 1024, 0x61);
    const framed = Buffer.concat([Buffer.from(`${chunk.byteLength.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    const chunks = 64; // 2 MiB in all, 8 times the limit, one chunk every 20 ms
    const parts = [head('POST', '/grocerylist?api_key=k', { accept: 'application/json', authorization: BASIC, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }), ...Array.from({ length: chunks }, () => framed), '0\r\n\r\n'];
    const answer = await rawExchange(gateway.origin, parts, { gapMs: 20, timeoutMs: 10_000 });
    expect(answer.status).toBe(413);
    expect(isLegacyError(answer.headers['content-type'], answer.body)).toBe(true);
    expect(answer.ms, 'answered long before the last chunk was due').toBeLessThan(chunks * 20 * 0.75);
    expect(legacy.requests.length).toBe(before);
  });

  it('a chunked body of exactly maxRequestBodyBytes is read whole and forwarded', async () => {
    const before = legacy.requests.length;
    const body = Buffer.alloc(MAX_BODY, 0x20);
    const framed = Buffer.concat([Buffer.from(`${body.byteLength.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    const answer = await rawExchange(gateway.origin, [head('POST', '/recipe/1/notes?api_key=k', { accept: 'application/json', 'transfer-encoding': 'chunked' }), framed], {
      timeoutMs: 5000,
    });
    expect(answer.status).toBe(200);
    expect(legacy.requests.length).toBe(before + 1);
    expect(legacy.requests.at(-1)?.bodyBytes).toBe(MAX_BODY);
  });
});

describe('limits in config', () => {
  const base = { upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' } } };

  it('has defaults, and names the key and the rule of a bad value', () => {
    const parsed = parseConfig(base);
    expect(parsed.ok && parsed.config.limits).toEqual({
      maxRequestBodyBytes: 1024 * 1024,
      maxResponseBodyBytes: 10 * 1024 * 1024,
      maxUrlLength: 8192,
      maxHeaderBytes: 16 * 1024,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      clientKeepAliveTimeoutMs: 5_000,
      shutdownGraceMs: 15_000,
      readyDelayMs: 0,
    });
    const errors = (document: unknown): string[] => {
      const result = parseConfig(document);
      return result.ok ? [] : result.errors;
    };
    expect(errors({ ...base, limits: { maxUrlLength: 20_000 } })).toEqual([expect.stringMatching(/^limits\.maxUrlLength: must be smaller than limits\.maxHeaderBytes \(16384\)/)]);
    expect(errors({ ...base, limits: { headersTimeoutMs: 40_000 } })).toEqual(['limits.headersTimeoutMs: must not be longer than limits.requestTimeoutMs (30000)']);
    expect(errors({ ...base, limits: { shutdownGraceMs: -1 } })[0]).toMatch(/^limits\.shutdownGraceMs: /);
    expect(errors({ ...base, limits: { maxHeaderBytes: 10 } })[0]).toMatch(/^limits\.maxHeaderBytes: /);
    expect(errors({ ...base, limits: { slowloris: true } })[0]).toMatch(/^limits: .*slowloris/);
  });
});

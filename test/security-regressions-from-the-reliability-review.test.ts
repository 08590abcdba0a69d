/**
 * Regressions for the faults the reliability and security review found: each was reproduced
 * against a real gateway, then fixed.
 */
import { connect } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { basic, send } from './support/http.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';
import { startApi2ModeRig } from './support/api2-mode.js';
import type { Api2ModeRig } from './support/api2-mode.js';

const J = { accept: 'application/json' };
const FREE = 'sandbox-free-key';

let legacy: StartedLegacySandbox;
let gateway: TestGateway;
beforeAll(async () => {
  legacy = await startLegacySandbox();
  gateway = await startTestGateway(legacy.origin);
});
afterAll(async () => {
  await gateway.close();
  await legacy.close();
});

/** Writes raw bytes, returns what came back before the server closed or `waitMs` passed. */
function raw(origin: string, bytes: string, waitMs = 1500): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let out = '';
    socket.on('data', (chunk) => (out += chunk.toString('latin1')));
    const done = () => resolve(out);
    socket.on('close', done);
    socket.on('error', done);
    setTimeout(() => {
      socket.destroy();
      done();
    }, waitMs);
  });
}

describe('api2 mode', () => {
  let rig: Api2ModeRig;
  beforeAll(async () => {
    rig = await startApi2ModeRig({ traffic: { breakers: { api2: { failureThreshold: 3, openMs: 60_000 } } } });
  });
  afterAll(() => rig.close());

  it('refuses an api_key that cannot be a header value, without tripping the api2 breaker', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await send(rig.gateway.origin, { target: '/recipes?api_key=%F0%9F%98%80&title_kw=soup', headers: J });
      expect(res.status).toBe(403);
    }
    const ok = await send(rig.gateway.origin, { target: `/recipes?api_key=${FREE}&title_kw=soup`, headers: J });
    expect(ok.status).toBe(200);
  });
});

describe('legacy error bodies', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('a JSON body field named %s with an object value is a 400, not a 500', async (field) => {
    const res = await send(gateway.origin, {
      method: 'POST',
      target: `/reviews?api_key=${FREE}`,
      headers: { ...J, authorization: basic('alice', 'alice-pass'), 'content-type': 'application/json' },
      body: `{"${field}":{"a":1}}`,
    });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ Message: expect.stringContaining(field), ModelState: { [field]: [expect.any(String)] } });
  });
});

describe('headers named in Connection', () => {
  it('negotiates on the headers the upstream is sent, so a cached page is never served in the wrong format', async () => {
    const target = `/recipes?title_kw=stew&rpp=2&api_key=${FREE}`;
    const sneaky = await send(gateway.origin, { target, headers: { ...J, connection: 'accept' } });
    expect(sneaky.status).toBe(200);
    expect(sneaky.headers['content-type']).toMatch(/xml/);
    const honest = await send(gateway.origin, { target, headers: J });
    expect(honest.headers['content-type']).toMatch(/json/);
    expect(() => honest.json()).not.toThrow();
  });
});

describe('plain-http redirect', () => {
  it('never redirects a client, and its api_key, to a host the client named', async () => {
    const redirecting = await startTestGateway(legacy.origin, { plainHttpCredentials: 'redirect' });
    try {
      const foreign = await send(redirecting.origin, { target: `/recipes?api_key=${FREE}`, headers: { ...J, host: 'evil.example' } });
      expect(foreign.status).toBe(403);
      expect(foreign.headers.location).toBeUndefined();
      const legacyHost = await send(redirecting.origin, { target: `/recipes?api_key=${FREE}`, headers: { ...J, host: 'api.bigoven.com' } });
      expect(legacyHost.status).toBe(308);
      expect(legacyHost.headers.location).toBe(`https://api.bigoven.com/recipes?api_key=${FREE}`);
    } finally {
      await redirecting.close();
    }
  });
});

describe('client faults', () => {
  it('a client that goes away while sending its body is not logged as a gateway failure', async () => {
    const { port } = new URL(gateway.origin);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`POST /grocerylist?api_key=${FREE} HTTP/1.1\r\nHost: gw\r\nAuthorization: ${basic('alice', 'alice-pass')}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`);
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
    });
    const deadline = Date.now() + 3000;
    while (!gateway.records.some((r) => r.method === 'POST' && r.operation === 'grocery.create') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const record = gateway.records.find((r) => r.method === 'POST' && r.operation === 'grocery.create');
    expect(record?.error).toBe('client-gone');
    expect(record?.status).not.toBe(500);
  });

  it.each([
    ['no Host (HTTP/1.0)', 'GET /recipes HTTP/1.0\r\nAccept: application/json\r\n\r\n'],
    ['an empty Host', 'GET /recipes HTTP/1.1\r\nHost: \r\nAccept: application/json\r\n\r\n'],
    ['a Host with user-info', 'GET /recipes HTTP/1.1\r\nHost: x@y\r\nAccept: application/json\r\n\r\n'],
  ])('%s gets a legacy-shaped 400', async (_name, request) => {
    const answer = await raw(gateway.origin, request);
    expect(answer).toMatch(/^HTTP\/1\.[01] 400/);
    expect(answer).toContain('"Message":"The request is refused: its Host header is missing or not a host name."');
  });
});

describe('config', () => {
  it('refuses credentials in an upstream URL, which the admin view would show and no request would send', () => {
    const result = parseConfig({ upstreams: { legacy: { baseUrl: 'http://user:secret@127.0.0.1:9000' } } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.join('\n')).toContain('upstreams.legacy.baseUrl: must not carry credentials');
  });
});


/**
 * Headers both ways (hop-by-hop dropped, including those named in Connection; X-Forwarded-* set),
 * both schemes accepted, X-Forwarded-Proto believed only from trusted proxies, and the plain-http
 * credentials policy.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';

let upstream: RecordingUpstream;
let gateway: TestGateway;

/**
 * The headers of the one upstream request `exchange` caused: fails when it forwarded nothing
 * (a cached answer, a refusal) rather than reading an earlier request's headers.
 */
async function forwardedBy(exchange: () => Promise<unknown>): Promise<Record<string, string | string[] | undefined>> {
  const before = upstream.requests.length;
  await exchange();
  const sent = upstream.requests.slice(before);
  expect(sent, 'upstream requests caused by this exchange').toHaveLength(1);
  return sent[0]?.headers ?? {};
}

beforeAll(async () => {
  upstream = await startRecordingUpstream((_req, res) => {
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('x-upstream-secret-hop', 'drop me');
    res.setHeader('connection', 'keep-alive, x-upstream-secret-hop');
    res.setHeader('keep-alive', 'timeout=5');
    res.setHeader('set-cookie', ['a=1', 'b=2']);
    res.setHeader('x-kept', 'yes');
    res.end('{"ok":true}');
  });
  gateway = await startTestGateway(upstream.origin);
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('headers', () => {
  it('drops hop-by-hop request headers, and those named in Connection, before the upstream', async () => {
    // A request answered to its own client (not a shared cache fill, which sends only what its key holds).
    const received = await forwardedBy(() => send(gateway.origin, {
      target: '/review/1?api_key=k',
      headers: {
        connection: 'x-client-hop, te',
        'x-client-hop': 'secret',
        te: 'trailers',
        'proxy-authorization': 'Basic eDp5',
        'x-end-to-end': 'kept',
        accept: 'application/json',
      },
    }));
    expect(received['x-client-hop']).toBeUndefined();
    expect(received['te']).toBeUndefined();
    expect(received['proxy-authorization']).toBeUndefined();
    expect(received['x-end-to-end']).toBe('kept');
    expect(received['accept']).toBe('application/json');
  });

  it('drops hop-by-hop answer headers, and those named in Connection, before the client', async () => {
    const res = await send(gateway.origin, { target: '/recipes?api_key=k' });
    expect(res.headers['x-upstream-secret-hop']).toBeUndefined();
    expect(res.headers['keep-alive']).toBeUndefined();
    expect(res.headers['x-kept']).toBe('yes');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
  });

  it('sets X-Forwarded-For/-Proto/-Host, replacing what an untrusted client claims', async () => {
    const received = await forwardedBy(() => send(gateway.origin, {
      target: '/recipes?title_kw=forwarded&api_key=k',
      headers: { host: 'api.bigoven.com', 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https' },
    }));
    expect(received['x-forwarded-for']).toBe('127.0.0.1');
    expect(received['x-forwarded-proto']).toBe('http');
    expect(received['x-forwarded-host']).toBe('api.bigoven.com');
  });

  it('passes the Authorization header through to the legacy backend', async () => {
    const received = await forwardedBy(() => send(gateway.origin, { target: '/grocerylist?api_key=k', headers: { authorization: basic('alice', 'alice-pass') } }));
    expect(received['authorization']).toBe(basic('alice', 'alice-pass'));
  });
});

describe('trusted proxies', () => {
  it('believes X-Forwarded-Proto and extends X-Forwarded-For only from a trusted peer', async () => {
    const behindLb = await startTestGateway(upstream.origin, { trustedProxies: ['127.0.0.0/8'] });
    try {
      const received = await forwardedBy(() => send(behindLb.origin, {
        target: '/recipes?title_kw=trusted&api_key=k',
        headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' },
      }));
      expect(received['x-forwarded-for']).toBe('203.0.113.7, 127.0.0.1');
      expect(received['x-forwarded-proto']).toBe('https');
      expect(behindLb.records.at(-1)).toMatchObject({ scheme: 'https', insecure: false });
    } finally {
      await behindLb.close();
    }
  });
});

describe('credentials over plain http', () => {
  it('allows them by default and marks the request insecure', async () => {
    const res = await send(gateway.origin, { target: '/recipes?api_key=k' });
    expect(res.status).toBe(200);
    expect(gateway.records.at(-1)).toMatchObject({ scheme: 'http', insecure: true });
  });

  it('does not mark a request without credentials', async () => {
    await send(gateway.origin, { target: '/recipe/5' });
    expect(gateway.records.at(-1)).toMatchObject({ insecure: false, operation: 'uncatalogued', pathTemplate: '/recipe/{n}' });
  });

  it('redirects them to https with 308 when so configured, without forwarding', async () => {
    const redirecting = await startTestGateway(upstream.origin, { plainHttpCredentials: 'redirect' });
    try {
      const before = upstream.requests.length;
      const res = await send(redirecting.origin, { target: '/recipes?title_kw=soup&api_key=k', headers: { host: 'api.bigoven.com:8080' } });
      expect(res.status).toBe(308);
      expect(res.headers.location).toBe('https://api.bigoven.com/recipes?title_kw=soup&api_key=k');
      expect(upstream.requests.length).toBe(before);
      expect(redirecting.records.at(-1)).toMatchObject({ insecure: true });
    } finally {
      await redirecting.close();
    }
  });

  it('refuses them with a legacy 403 when so configured', async () => {
    const rejecting = await startTestGateway(upstream.origin, { plainHttpCredentials: 'reject' });
    try {
      const res = await send(rejecting.origin, { target: '/grocerylist', headers: { authorization: basic('bob', 'bob-pass'), accept: 'application/json' } });
      expect(res.status).toBe(403);
      expect(res.headers['x-gateway-error']).toBe('insecure-credentials');
      expect(res.text()).not.toContain('bob-pass');
    } finally {
      await rejecting.close();
    }
  });

  it('knows an api_key however the client spells it (API_Key, api%5Fkey), as the canonical request does: refused over plain http, never forwarded', async () => {
    const rejecting = await startTestGateway(upstream.origin, { plainHttpCredentials: 'reject' });
    try {
      const before = upstream.requests.length;
      for (const target of ['/recipes?title_kw=soup&API_Key=k', '/recipes?title_kw=soup&api%5Fkey=k']) {
        const res = await send(rejecting.origin, { target, headers: { accept: 'application/json' } });
        expect(res.status, target).toBe(403);
        expect(res.headers['x-gateway-error'], target).toBe('insecure-credentials');
        expect(rejecting.records.at(-1), target).toMatchObject({ insecure: true, status: 403 });
      }
      expect(upstream.requests.length).toBe(before);
    } finally {
      await rejecting.close();
    }
  });
});

describe('https listener', () => {
  let dir: string;
  let cert: string;
  beforeAll(async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    dir = await mkdtemp(join(tmpdir(), 'gateway-tls-'));
    cert = pems.cert;
    await writeFile(join(dir, 'cert.pem'), pems.cert);
    await writeFile(join(dir, 'key.pem'), pems.private);
  });

  it('serves every operation over https too, even those the legacy document lists as http', async () => {
    const tls = await startTestGateway(upstream.origin, {
      plainHttpCredentials: 'reject',
      listen: { host: '127.0.0.1', port: 0, https: { port: 0, certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') } },
    });
    try {
      expect(tls.httpsOrigin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      let status = 0;
      const received = await forwardedBy(async () => {
        status = (await send(tls.httpsOrigin as string, { target: '/grocerylist?api_key=k', headers: { authorization: basic('alice', 'alice-pass') }, ca: cert })).status;
      });
      expect(status).toBe(200);
      expect(received['x-forwarded-proto']).toBe('https');
      expect(tls.records.at(-1)).toMatchObject({ operation: 'grocery.list', scheme: 'https', insecure: false });
    } finally {
      await tls.close();
    }
  });
});

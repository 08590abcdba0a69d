/**
 * Legacy clients that use the gateway as their HTTP proxy (absolute-form targets, and CONNECT for
 * https URLs), under each `plainHttpCredentials` policy, with real proxy clients: undici's
 * ProxyAgent (absolute-form for http URLs with `proxyTunnel: false`, CONNECT for https URLs, and
 * its redirect interceptor following a 308 as a legacy client's HTTP stack does) and node:http.
 *
 *   allow     served over plain http, marked insecure
 *   redirect  308 to https://<legacy host>/…, followed through CONNECT <legacy host>:443, which the
 *             gateway terminates with its own certificate and serves: the client keeps working;
 *             without a TLS listener, 403 (the CONNECT could not be taken)
 *   reject    403
 *
 * CONNECT to any other host or port is still 405, and nothing is ever tunnelled onward.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { ProxyAgent, interceptors, request } from 'undici';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectAuthority } from '../src/node/connect-termination.js';
import { decideScheme } from '../src/http/scheme-decision.js';
import { rawExchange } from './reliability-support.js';
import { send } from './support/http.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { startTestGateway } from './support/gateway.js';
import type { TestGateway } from './support/gateway.js';

const LEGACY = 'api.bigoven.com';
const SEARCH = `http://${LEGACY}/recipes?title_kw=soup&api_key=k`;
/** The search as forwarded (the gateway forwards its canonical form: defaults filled in). */
const FORWARDED_SEARCH = /^\/recipes\?title_kw=soup&.*api_key=k$/;

let upstream: RecordingUpstream;
let dir: string;
let cert: string;
let gateways: Record<'allow' | 'reject' | 'redirect' | 'redirectNoTls', TestGateway>;

beforeAll(async () => {
  upstream = await startRecordingUpstream((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ target: req.url, proto: req.headers['x-forwarded-proto'] }));
  });
  // The operator's certificate, valid for the legacy host name (as when the gateway serves it directly).
  const pems = await generate([{ name: 'commonName', value: LEGACY }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: LEGACY }] }],
  });
  cert = pems.cert;
  dir = await mkdtemp(join(tmpdir(), 'gateway-proxy-mode-'));
  await writeFile(join(dir, 'cert.pem'), pems.cert);
  await writeFile(join(dir, 'key.pem'), pems.private);
  const https = { port: 0, certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') };
  gateways = {
    allow: await startTestGateway(upstream.origin, { plainHttpCredentials: 'allow' }),
    reject: await startTestGateway(upstream.origin, { plainHttpCredentials: 'reject', listen: { host: '127.0.0.1', port: 0, https } }),
    redirect: await startTestGateway(upstream.origin, { plainHttpCredentials: 'redirect', listen: { host: '127.0.0.1', port: 0, https } }),
    redirectNoTls: await startTestGateway(upstream.origin, { plainHttpCredentials: 'redirect' }),
  };
});
afterAll(async () => {
  for (const gateway of Object.values(gateways ?? {})) await gateway.close();
  await upstream.close();
  await rm(dir, { recursive: true, force: true });
});

/** A legacy client's HTTP stack with the gateway as its proxy, following redirects. */
function proxiedClient(gateway: TestGateway): Dispatcher {
  return new ProxyAgent({ uri: gateway.origin, proxyTunnel: false, requestTls: { ca: cert } }).compose(interceptors.redirect({ maxRedirections: 2 }));
}

async function get(dispatcher: Dispatcher, url: string) {
  const res = await request(url, { dispatcher, headers: { accept: 'application/json' } });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

describe('a proxy-mode client (absolute-form) sending credentials over plain http', () => {
  it('allow: is served over plain http and marked insecure', async () => {
    const res = await get(proxiedClient(gateways.allow), SEARCH);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ target: expect.stringMatching(FORWARDED_SEARCH), proto: 'http' });
    expect(gateways.allow.records.at(-1)).toMatchObject({ absoluteForm: true, scheme: 'http', insecure: true });
  });

  it('redirect: gets 308 to https://<legacy host>/…, follows it through CONNECT to the gateway, and is served over TLS', async () => {
    const first = await send(gateways.redirect.origin, { target: SEARCH, headers: { host: LEGACY, accept: 'application/json' } });
    expect(first.status).toBe(308);
    expect(first.headers['location']).toBe(`https://${LEGACY}/recipes?title_kw=soup&api_key=k`);
    const before = upstream.requests.length;

    const res = await get(proxiedClient(gateways.redirect), SEARCH);
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ target: expect.stringMatching(FORWARDED_SEARCH), proto: 'https' });
    expect(upstream.requests.length - before, 'forwarded once, after the redirect').toBe(1);
    expect(gateways.redirect.records.at(-1)).toMatchObject({ scheme: 'https', insecure: false });
  });

  it('redirect without a TLS listener: 403 saying why, never a redirect the client could not follow', async () => {
    const res = await get(proxiedClient(gateways.redirectNoTls), SEARCH);
    expect(res.status).toBe(403);
    expect(res.text).toContain('https');
    expect(gateways.redirectNoTls.records.at(-1)).toMatchObject({ absoluteForm: true, insecure: true, error: 'insecure-credentials' });
  });

  it('reject: 403, and the same client over https through CONNECT is served', async () => {
    expect((await get(proxiedClient(gateways.reject), SEARCH)).status).toBe(403);
    const res = await get(proxiedClient(gateways.reject), SEARCH.replace('http:', 'https:'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ proto: 'https' });
  });
});

describe('CONNECT that is not to a legacy host on 443 or the gateway https port', () => {
  it.each([
    ['another host', 'evil.example:443'],
    ['a legacy host on another port', `${LEGACY}:8443`],
    ['an address', '127.0.0.1:443'],
  ])('%s gets 405 and is never tunnelled', async (_name, authority) => {
    const answer = await rawExchange(gateways.redirect.origin, `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
    expect(answer.status).toBe(405);
  });

  it('a legacy host gets 405 from a gateway without a TLS listener', async () => {
    const answer = await rawExchange(gateways.allow.origin, `CONNECT ${LEGACY}:443 HTTP/1.1\r\nHost: ${LEGACY}:443\r\n\r\n`);
    expect(answer.status).toBe(405);
  });
});

describe('the decision and the CONNECT target, as pure functions', () => {
  const facts = { scheme: 'http', credentials: true, absoluteForm: true, host: LEGACY, redirectable: true, httpsPort: 8443, path: '/recipes', query: 'api_key=k' } as const;
  it('a direct client is sent to the gateway https port; a proxy-mode client to the legacy host on 443', () => {
    expect(decideScheme({ ...facts, policy: 'redirect', absoluteForm: false })).toEqual({ kind: 'redirect', location: `https://${LEGACY}:8443/recipes?api_key=k` });
    expect(decideScheme({ ...facts, policy: 'redirect', host: `${LEGACY}:80` })).toEqual({ kind: 'redirect', location: `https://${LEGACY}/recipes?api_key=k` });
    expect(decideScheme({ ...facts, policy: 'redirect', redirectable: false }).kind).toBe('refuse');
    expect(decideScheme({ ...facts, policy: 'allow' })).toEqual({ kind: 'serve', insecure: true });
    expect(decideScheme({ ...facts, policy: 'reject', credentials: false })).toEqual({ kind: 'serve', insecure: false });
  });
  it('reads authority-form targets only', () => {
    expect(connectAuthority(`${LEGACY}:443`)).toEqual({ host: LEGACY, port: 443 });
    expect(connectAuthority('[::1]:443')).toEqual({ host: '[::1]', port: 443 });
    expect(connectAuthority(`http://${LEGACY}:443/`)).toBeNull();
    expect(connectAuthority(`user@${LEGACY}:443`)).toBeNull();
  });
});

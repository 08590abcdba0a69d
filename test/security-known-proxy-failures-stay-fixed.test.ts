/**
 * Regression tests for the proxy failures of /work/shared/reference/proxy-lessons.md, sent raw over
 * sockets to a real gateway whose upstream records what it receives, next to a foreign server that
 * must never be contacted:
 * - encoded `..` traversal in the forms the existing suite does not send (double encoding,
 *   overlong UTF-8, IIS `%u`, backslashes, through an absolute-form target);
 * - `//host` authority injection in every request-target form (origin, absolute, authority,
 *   asterisk, CONNECT) and through Host-like headers;
 * - cache-key collision through the gateway: values holding the key's separators, an encoded `&`,
 *   JSON and XML of one search;
 * - hop-by-hop header injection through `Connection` (the gateway's own X-Forwarded-* and the
 *   body framing survive);
 * - `Host` spoofing (absolute-form authority wins, duplicated Host refused, X-Forwarded-Host from a client);
 * - request smuggling framings (CL+TE, two Content-Lengths, obs-fold, bare LF): refused by the
 *   parser with a legacy 400, never forwarded.
 *
 * (test/gateway-never-forwards-hostile-targets.test.ts covers the plain `..` forms, `//host` in
 * origin-form, foreign absolute-form hosts and `acceptedHosts`; test/gateway-headers-and-schemes.test.ts
 * the hop-by-hop basics; test/search-cache-keys-are-canonical.test.ts the key builder itself.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultUpstream } from '../src/sandbox/faults.js';
import type { StartedFaultUpstream } from '../src/sandbox/faults.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';
import { isLegacyError, rawExchange, startRigGateway } from './reliability-support.js';
import type { RawAnswer, RigGateway } from './reliability-support.js';

let upstream: RecordingUpstream;
let foreign: StartedFaultUpstream;
let gateway: RigGateway;
let strict: RigGateway;
let F: string;

beforeAll(async () => {
  // Echoes what it received, so a page shows which request filled it.
  upstream = await startRecordingUpstream((req, res, recorded) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', vary: 'Accept' });
    res.end(JSON.stringify({ target: req.url, accept: req.headers.accept ?? null, bodyBytes: recorded.body.byteLength }));
  });
  foreign = await startFaultUpstream({ mode: 'ok' });
  F = new URL(foreign.origin).host;
  gateway = await startRigGateway({ upstreams: { legacy: { baseUrl: upstream.origin } } });
  strict = await startRigGateway({ upstreams: { legacy: { baseUrl: upstream.origin } }, acceptedHosts: ['gateway.example'] });
});
afterAll(async () => {
  await gateway.close();
  await strict.close();
  await upstream.close();
  expect(foreign.connections(), 'the foreign server was never contacted').toBe(0);
  await foreign.close();
});

const J = 'Accept: application/json\r\n';

function request(line: string, headers = `Host: 127.0.0.1\r\n${J}`, body = ''): string {
  return `${line}\r\n${headers}\r\n${body}`;
}

async function exchange(origin: string, payload: string): Promise<RawAnswer & { forwarded: RecordingUpstream['requests'] }> {
  const before = upstream.requests.length;
  const answer = await rawExchange(origin, Buffer.from(payload, 'latin1'), { timeoutMs: 3000 });
  return { ...answer, forwarded: upstream.requests.slice(before) };
}

function expectRefused(answer: RawAnswer & { forwarded: unknown[] }, status: number): void {
  expect(answer.status, answer.raw.slice(0, 300)).toBe(status);
  expect(isLegacyError(answer.headers['content-type'], answer.body), answer.body).toBe(true);
  expect(answer.forwarded).toEqual([]);
}

describe('encoded .. traversal', () => {
  it.each([
    ['overlong UTF-8 dots', '/review/%c0%ae%c0%ae/grocerylist?api_key=k'],
    ['IIS %u escapes', '/review/%u002e%u002e/grocerylist?api_key=k'],
    ['encoded backslash', '/review/..%5cgrocerylist?api_key=k'],
    ['raw backslash', '/review/..\\grocerylist?api_key=k'],
    ['dots after a version prefix', '/v1/%2e%2e/recipes?api_key=k'],
    ['half-encoded', '/review/.%2E/grocerylist?api_key=k'],
    ['trailing encoded dot segment', '/recipes/%2e?api_key=k'],
  ])('%s is refused with a legacy 400 and never forwarded', async (_name, target) => {
    expectRefused(await exchange(gateway.origin, request(`GET ${target} HTTP/1.1`)), 400);
  });

  it('refuses encoded dots inside an absolute-form target for a legacy host', async () => {
    expectRefused(await exchange(gateway.origin, request('GET http://api.bigoven.com/review/%2e%2e/grocerylist?api_key=k HTTP/1.1', `Host: api.bigoven.com\r\n${J}`)), 400);
  });

  it('decodes once only: a double-encoded %252e%252e reaches the upstream as the same bytes, routed as what it is', async () => {
    const answer = await exchange(gateway.origin, request('GET /review/%252e%252e/grocerylist?api_key=k HTTP/1.1'));
    expect(answer.status).toBe(200);
    expect(answer.forwarded.map((r) => r.target)).toEqual(['/review/%252e%252e/grocerylist?api_key=k']);
    expect(gateway.records.at(-1)).toMatchObject({ operation: 'uncatalogued' });
  });
});

describe('//host authority injection', () => {
  it.each([
    ['a third slash', (): string => `GET ///${F}/recipes?api_key=k HTTP/1.1`, 200],
    ['an encoded //', (): string => `GET /%2F%2F${F}/recipes?api_key=k HTTP/1.1`, 400],
    ['a backslash pair', (): string => `GET /\\\\${F}/recipes?api_key=k HTTP/1.1`, 400],
    ['absolute-form to the foreign host', (): string => `GET http://${F}/recipes?api_key=k HTTP/1.1`, 421],
    ['absolute-form in upper case', (): string => `GET HTTP://${F}/recipes?api_key=k HTTP/1.1`, 421],
    ['user-info naming a legacy host', (): string => `GET http://api.bigoven.com:80@${F}/recipes?api_key=k HTTP/1.1`, 421],
    ['authority-form', (): string => `GET ${F} HTTP/1.1`, 400],
    ['asterisk-form', (): string => 'OPTIONS * HTTP/1.1', 400],
  ] as const)('%s: the foreign host is never contacted', async (_name, line, status) => {
    const answer = await exchange(gateway.origin, request(line()));
    expect(answer.status, answer.raw.slice(0, 200)).toBe(status);
    if (status !== 200) expectRefused(answer, status);
    for (const forwarded of answer.forwarded) {
      expect(forwarded.headers.host).toBe(new URL(upstream.origin).host);
      expect(forwarded.target.startsWith('//')).toBe(false);
    }
  });

  it('CONNECT to the foreign host is never tunnelled', async () => {
    const answer = await exchange(gateway.origin, request(`CONNECT ${F} HTTP/1.1`, `Host: ${F}\r\n`));
    expect(answer.status === 0 || answer.status >= 400).toBe(true);
    expect(answer.forwarded).toEqual([]);
  });

  it.each([
    ['Host', `Host: ${'{F}'}\r\n`],
    ['X-Forwarded-Host', `Host: 127.0.0.1\r\nX-Forwarded-Host: {F}\r\n`],
    ['Forwarded', `Host: 127.0.0.1\r\nForwarded: host={F};proto=http\r\n`],
    ['X-Original-URL', `Host: 127.0.0.1\r\nX-Original-URL: http://{F}/recipes\r\n`],
  ])('%s naming the foreign host never chooses the upstream', async (_name, headers) => {
    const answer = await exchange(gateway.origin, request('GET /review/1?api_key=k HTTP/1.1', headers.replace('{F}', F) + J));
    expect(answer.status).toBe(200);
    expect(answer.forwarded).toHaveLength(1);
    expect(answer.forwarded[0]?.headers.host).toBe(new URL(upstream.origin).host);
    expect(answer.forwarded[0]?.headers.forwarded).toBeUndefined();
  });
});

describe('cache-key collision, through the gateway', () => {
  const search = (query: string, accept = J) => request(`GET /recipes?${query} HTTP/1.1`, `Host: 127.0.0.1\r\n${accept}`);

  // Each search as the gateway forwards it: rendered from its canonical request (catalogue order,
  // defaults explicit, api_key last), so what is keyed is what is sent.
  it.each([
    ['separators inside values', 'title_kw=a%22%2C%22b&any_kw=c&api_key=k', 'title_kw=a&any_kw=b%22%2C%22c&api_key=k', 'title_kw=a%22%2C%22b&any_kw=c&pg=1&rpp=10&api_key=k', 'title_kw=a&any_kw=b%22%2C%22c&pg=1&rpp=10&api_key=k'],
    ['an encoded & inside a value', 'title_kw=soup&rpp=5&api_key=k', 'title_kw=soup%26rpp%3D5&api_key=k', 'title_kw=soup&pg=1&rpp=5&api_key=k', 'title_kw=soup%26rpp%3D5&pg=1&rpp=10&api_key=k'],
    ['a null byte inside a value', 'title_kw=a%00b&api_key=k', 'title_kw=a&any_kw=b&api_key=k', 'title_kw=a%00b&pg=1&rpp=10&api_key=k', 'title_kw=a&any_kw=b&pg=1&rpp=10&api_key=k'],
    ['a value that looks like the key array', 'title_kw=%5B%22recipes.search%22%5D&api_key=k', 'any_kw=%5B%22recipes.search%22%5D&api_key=k', 'title_kw=%5B%22recipes.search%22%5D&pg=1&rpp=10&api_key=k', 'any_kw=%5B%22recipes.search%22%5D&pg=1&rpp=10&api_key=k'],
  ])('%s: the second search is its own page, never the first one', async (_name, first, second, firstSent, secondSent) => {
    const a = await exchange(gateway.origin, search(first));
    const b = await exchange(gateway.origin, search(second));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers['x-cache']).toBe('MISS');
    expect((JSON.parse(b.body) as { target: string }).target).toBe(`/recipes?${secondSent}`);
    const again = await exchange(gateway.origin, search(first));
    expect(again.headers['x-cache']).toBe('HIT');
    expect((JSON.parse(again.body) as { target: string }).target).toBe(`/recipes?${firstSent}`);
  });

  it('the JSON and the XML page of one search are two entries', async () => {
    await exchange(gateway.origin, search('title_kw=format&api_key=k'));
    const xml = await exchange(gateway.origin, search('title_kw=format&api_key=k', 'Accept: application/xml\r\n'));
    expect(xml.headers['x-cache']).toBe('MISS');
    expect(xml.forwarded[0]?.headers.accept).toBe('application/xml');
  });
});

describe('hop-by-hop injection through Connection', () => {
  it("cannot strip the gateway's own X-Forwarded-For/-Proto/-Host", async () => {
    const answer = await exchange(
      gateway.origin,
      request('GET /review/2?api_key=k HTTP/1.1', `Host: api.bigoven.com\r\n${J}Connection: keep-alive, X-Forwarded-For, x-forwarded-proto, X-Forwarded-Host\r\nX-Forwarded-For: 6.6.6.6\r\n`),
    );
    expect(answer.status).toBe(200);
    const headers = answer.forwarded[0]?.headers ?? {};
    expect(headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-host']).toBe('api.bigoven.com');
    expect(headers.connection).not.toMatch(/forwarded/i);
  });

  it('cannot break the body framing: Content-Length and Transfer-Encoding named in Connection', async () => {
    const body = '{"name":"flour","quantity":"1 lb"}';
    const answer = await exchange(
      gateway.origin,
      request(
        'POST /grocerylist?api_key=k HTTP/1.1',
        `Host: 127.0.0.1\r\n${J}Authorization: Basic YWxpY2U6YWxpY2UtcGFzcw==\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: content-length, transfer-encoding\r\n`,
        body,
      ),
    );
    expect(answer.status).toBe(200);
    expect(answer.forwarded).toHaveLength(1);
    // The body the gateway validated, rendered in catalogue order, framed by its own length.
    const rendered = '{"quantity":"1 lb","name":"flour"}';
    expect(answer.forwarded[0]?.body.toString()).toBe(rendered);
    expect(answer.forwarded[0]?.headers['content-length']).toBe(String(rendered.length));
  });

  it('drops a custom header named in Connection, in any case and spacing, and Keep-Alive and Upgrade always', async () => {
    const answer = await exchange(
      gateway.origin,
      request('GET /review/3?api_key=k HTTP/1.1', `Host: 127.0.0.1\r\n${J}Connection:  X-Secret-Hop ,Upgrade\r\nX-Secret-Hop: s\r\nKeep-Alive: timeout=99\r\nUpgrade: h2c\r\n`),
    );
    const headers = answer.forwarded[0]?.headers ?? {};
    expect(headers['x-secret-hop']).toBeUndefined();
    expect(headers['keep-alive']).toBeUndefined();
    expect(headers.upgrade).toBeUndefined();
  });
});

describe('Host spoofing', () => {
  it('the authority of an absolute-form target wins over a spoofed Host', async () => {
    const answer = await exchange(strict.origin, request('GET http://api.bigoven.com/review/4?api_key=k HTTP/1.1', `Host: evil.example\r\n${J}`));
    expect(answer.status).toBe(200);
    expect(answer.forwarded[0]?.headers['x-forwarded-host']).toBe('api.bigoven.com');
    expect(answer.forwarded[0]?.headers.host).toBe(new URL(upstream.origin).host);
  });

  it('a duplicated Host is refused with 400 whichever comes first, and never forwarded', async () => {
    expectRefused(await exchange(strict.origin, request('GET /review/5?api_key=k HTTP/1.1', `Host: gateway.example\r\nHost: evil.example\r\n${J}`)), 400);
    expectRefused(await exchange(strict.origin, request('GET /review/5?api_key=k HTTP/1.1', `Host: evil.example\r\nHost: gateway.example\r\n${J}`)), 400);
  });

  it.each(['gateway.example.evil.example', 'evil-gateway.example', 'gateway.example.', 'GATEWAY.EXAMPLE.evil'])('Host %s is not an accepted host', async (host) => {
    expectRefused(await exchange(strict.origin, request('GET /review/6?api_key=k HTTP/1.1', `Host: ${host}\r\n${J}`)), 421);
  });

  it('an untrusted client cannot set X-Forwarded-Host: the upstream sees the Host it sent', async () => {
    const answer = await exchange(strict.origin, request('GET /review/7?api_key=k HTTP/1.1', `Host: gateway.example\r\nX-Forwarded-Host: evil.example\r\n${J}`));
    expect(answer.forwarded[0]?.headers['x-forwarded-host']).toBe('gateway.example');
  });
});

describe('request smuggling framings', () => {
  const post = 'POST /grocerylist?api_key=k HTTP/1.1';
  it.each([
    ['Content-Length and Transfer-Encoding', request(post, 'Host: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\nGET /review/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')],
    ['two different Content-Lengths', request(post, 'Host: 127.0.0.1\r\nContent-Length: 4\r\nContent-Length: 5\r\n', 'abcde')],
    ['Transfer-Encoding folded over two lines', request(post, 'Host: 127.0.0.1\r\nTransfer-Encoding:\r\n chunked\r\n', '0\r\n\r\n')],
    ['a signed Content-Length', request(post, 'Host: 127.0.0.1\r\nContent-Length: +4\r\n', 'abcd')],
    ['bare LF line ends', 'GET /review/1?api_key=k HTTP/1.1\nHost: 127.0.0.1\n\n'],
    ['a NUL in a header value', request('GET /review/1?api_key=k HTTP/1.1', 'Host: 127.0.0.1\r\nX-A: a\u0000b\r\n')],
    ['a space in a header name', request('GET /review/1?api_key=k HTTP/1.1', 'Host: 127.0.0.1\r\nX A: b\r\n')],
  ])('%s: a legacy 400, nothing forwarded', async (_name, payload) => {
    expectRefused(await exchange(gateway.origin, payload), 400);
  });
});

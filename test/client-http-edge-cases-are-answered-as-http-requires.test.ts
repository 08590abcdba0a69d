/**
 * HTTP edge cases on the client side of the gateway, each reproduced against a real gateway and
 * named after what it proves (issue 16, item 4; the upstream's unsolicited 1xx is in
 * test/upstream-unsolicited-1xx-is-ignored.test.ts):
 * - two `Host` headers: 400, nothing forwarded (RFC 9112 §3.2);
 * - two `Authorization` headers (two users): 400, nothing forwarded, neither credential echoed;
 * - TRACE: 405 from the gateway itself, never forwarded;
 * - a 413 or a 431 reaches a client that wrote its whole body at once on `Connection: close` and
 *   reads only afterwards (lingering close; before it, the kernel's RST discarded many answers);
 * - pipelined writes followed by a broken request: each forwarded write gets its answer, in
 *   order, then the 400, then the connection closes.
 */
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLegacyError, rawExchange, startRigGateway } from './reliability-support.js';
import type { RigGateway } from './reliability-support.js';
import { startRecordingUpstream } from './support/recording-upstream.js';
import type { RecordingUpstream } from './support/recording-upstream.js';

let upstream: RecordingUpstream;
let gateway: RigGateway;
const BUSY_WRITER = fileURLToPath(new URL('./support/busy-writer-client.mjs', import.meta.url));

beforeAll(async () => {
  upstream = await startRecordingUpstream((req, res, recorded) => {
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ method: req.method, target: req.url, body: recorded.body.toString('utf8') }));
  });
  gateway = await startRigGateway({ upstreams: { legacy: { baseUrl: upstream.origin } }, limits: { maxRequestBodyBytes: 64 * 1024 } });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const J = 'Accept: application/json\r\n';

describe('two Host headers', () => {
  it('two Host headers get 400 and nothing is forwarded', async () => {
    const before = upstream.requests.length;
    const answer = await rawExchange(gateway.origin, `GET /review/5?api_key=k HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n${J}\r\n`);
    expect(answer.status).toBe(400);
    expect(isLegacyError(answer.headers['content-type'], answer.body), answer.body).toBe(true);
    expect(upstream.requests.length).toBe(before);
  });

  it('one Host header (and a Host-like header name) is still served', async () => {
    const answer = await rawExchange(gateway.origin, `GET /review/5?api_key=k HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Host: other\r\n${J}\r\n`);
    expect(answer.status).toBe(200);
  });
});

describe('two Authorization headers', () => {
  it('two Authorization headers (two users) get 400 naming the rule, nothing is forwarded and neither credential is echoed', async () => {
    const before = upstream.requests.length;
    const alice = Buffer.from('alice:alice-pass').toString('base64');
    const bob = Buffer.from('bob:bob-pass').toString('base64');
    const answer = await rawExchange(gateway.origin, `GET /favorites?api_key=k HTTP/1.1\r\nHost: 127.0.0.1\r\n${J}Authorization: Basic ${alice}\r\nAuthorization: Basic ${bob}\r\n\r\n`);
    expect(answer.status).toBe(400);
    expect(isLegacyError(answer.headers['content-type'], answer.body), answer.body).toBe(true);
    expect(answer.body).toContain('Authorization must be given once');
    expect(answer.body).not.toContain(alice);
    expect(answer.body).not.toContain(bob);
    expect(upstream.requests.length).toBe(before);
  });

  it('one Authorization header is still served', async () => {
    const alice = Buffer.from('alice:alice-pass').toString('base64');
    const answer = await rawExchange(gateway.origin, `GET /favorites?api_key=k HTTP/1.1\r\nHost: 127.0.0.1\r\n${J}Authorization: Basic ${alice}\r\n\r\n`);
    expect(answer.status).toBe(200);
  });
});

describe('TRACE', () => {
  it('TRACE is answered 405 by the gateway, with Allow, and never forwarded', async () => {
    const before = upstream.requests.length;
    const answer = await rawExchange(gateway.origin, `TRACE /review/5?api_key=k HTTP/1.1\r\nHost: 127.0.0.1\r\n${J}Authorization: Basic dTpw\r\n\r\n`);
    expect(answer.status).toBe(405);
    expect(answer.headers['allow']).toBe('GET, HEAD, POST, PUT, DELETE');
    expect(isLegacyError(answer.headers['content-type'], answer.body), answer.body).toBe(true);
    expect(answer.body).not.toContain('dTpw');
    expect(upstream.requests.length).toBe(before);
  });
});

function busyWriter(kind: '413' | '431'): Promise<number> {
  const port = new URL(gateway.origin).port;
  return new Promise((resolve) => {
    execFile(process.execPath, [BUSY_WRITER, port, kind, String(8 * 1024 * 1024)], { timeout: 30_000 }, (_error, stdout) => {
      resolve((JSON.parse(stdout || '{"status":0}') as { status: number }).status);
    });
  });
}

describe('lingering close', () => {
  it.each(['413', '431'] as const)('a %s reaches a client that wrote its whole body at once on Connection: close', async (kind) => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push(await busyWriter(kind));
    expect(statuses).toEqual(statuses.map(() => Number(kind)));
  }, 120_000);
});

/** Writes `payload` at once and reads until the gateway closes the connection. */
function untilClosed(payload: string): Promise<string> {
  const url = new URL(gateway.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => reject(new Error('the gateway did not close the connection')), 15_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.on('connect', () => socket.write(payload));
  });
}

/** The answers in `raw`, in order: status and body (Content-Length framed). */
function answersIn(raw: string): Array<{ status: number; body: string }> {
  const answers: Array<{ status: number; body: string }> = [];
  let at = 0;
  while (at < raw.length) {
    const end = raw.indexOf('\r\n\r\n', at);
    if (end === -1) break;
    const head = raw.slice(at, end);
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    answers.push({ status: Number(head.split(' ')[1]), body: Buffer.from(raw.slice(end + 4, end + 4 + length), 'latin1').toString('utf8') });
    at = end + 4 + length;
  }
  return answers;
}

describe('pipelined requests before a broken one', () => {
  it('three pipelined POST reviews then a broken header line: three answers in order, then 400, then close', async () => {
    const post = (n: number): string => {
      const body = JSON.stringify({ StarRating: n, Comment: `review ${n}` });
      return `POST /recipe/${n}/review?api_key=k HTTP/1.1\r\nHost: 127.0.0.1\r\n${J}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const broken = `GET /review/1?api_key=k HTTP/1.1\r\nHost: 127.0.0.1\r\nthis is not a header line\r\n\r\n`;
    const before = upstream.requests.length;
    const raw = await untilClosed(post(1) + post(2) + post(3) + broken);
    const forwarded = upstream.requests.slice(before);
    const answers = answersIn(raw);
    expect(answers.map((a) => a.status), raw.slice(0, 400)).toEqual([201, 201, 201, 400]);
    expect(forwarded.map((r) => r.target)).toEqual(['/recipe/1/review?api_key=k', '/recipe/2/review?api_key=k', '/recipe/3/review?api_key=k']);
    answers.slice(0, 3).forEach((a, i) => expect(JSON.parse(a.body)).toMatchObject({ target: `/recipe/${i + 1}/review?api_key=k` }));
    expect(isLegacyError('application/json', answers[3]?.body ?? ''), answers[3]?.body).toBe(true);
  });
});

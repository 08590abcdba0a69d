/**
 * What Node's HTTP parser refuses before the gateway sees a request (headers over maxHeaderBytes
 * → 431, headers too slow → 408, broken HTTP → 400) and CONNECT (→ 405) are answered in the legacy
 * error shape AND logged, one usage-log line each (operation `unrouted`), and counted in the
 * metrics; a request whose body Node cut while the core app held it is logged once, with the 408
 * the client got. Real gateway, real sandbox backend, raw TCP clients on 127.0.0.1; no secret of
 * those requests reaches the log.
 */
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { isLegacyError, rawExchange } from './reliability-support.js';
import type { RawAnswer } from './reliability-support.js';
import { startTestGateway } from './support/gateway.js';
import { basic, send } from './support/http.js';
import { tempDir } from './support/log-fixtures.js';

const SECRET = 'planted-secret-123';
const HASH_KEY = 'node-refusals-hash-key-1234';
const TOKEN = 'node-refusals-metrics-token';
const MAX_HEADER_BYTES = 2048;
const HEADERS_TIMEOUT_MS = 300;
const hmac16 = (text: string): string => createHmac('sha256', HASH_KEY).update(text).digest('hex').slice(0, 16);

type Line = Record<string, unknown>;
type Exchange = (origin: string) => Promise<RawAnswer>;

let sandbox: StartedLegacySandbox;
beforeAll(async () => {
  sandbox = await startLegacySandbox();
});
afterAll(async () => {
  await sandbox.close();
});

const oversized: Exchange = (origin) =>
  rawExchange(origin, `GET /recipes?title_kw=soup&api_key=${SECRET} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nX-Padding: ${'p'.repeat(MAX_HEADER_BYTES + 100)}\r\n\r\n`);

const slowHeaders: Exchange = (origin) =>
  rawExchange(origin, [`GET /recipes?api_key=${SECRET} HTTP/1.1\r\n`, 'Host: 127.0.0.1\r\n', ...Array.from({ length: 20 }, (_, i) => `X-Slow-${i}: a\r\n`)], {
    gapMs: 100,
    timeoutMs: 3000,
  });

const garbage: Exchange = (origin) => rawExchange(origin, 'HELLO THERE\r\n\r\n');

const tunnel: Exchange = (origin) =>
  rawExchange(origin, `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nX-Request-Id: connect-trace-1\r\nAuthorization: ${basic('alice', 'alice-pass')}\r\n\r\n`);

/** Half of a header block, then the client closes its side (and reads what comes back). */
const halfClosed: Exchange = (origin) =>
  new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(new URL(origin).port), '127.0.0.1', () => socket.end(`GET /recipes?api_key=${SECRET} HTTP/1.1\r\nHost: 127.0.0.1\r\n`));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 2000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0), headers: {}, body: '', raw, ms: Date.now() - started });
    });
  });

/** Runs the exchanges through a fresh gateway logging to a file; returns the answers, the log lines, the whole log and the metrics. */
async function logged(exchanges: readonly Exchange[], recorded = exchanges.length): Promise<{ answers: RawAnswer[]; lines: Line[]; log: string; metrics: string }> {
  const file = join(await tempDir(), 'usage.log');
  const gateway = await startTestGateway(sandbox.origin, {
    limits: { maxHeaderBytes: MAX_HEADER_BYTES, maxUrlLength: 1024, headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: 600 },
    observability: { log: { destination: file }, hashKey: HASH_KEY, admin: { bearerToken: TOKEN } },
  });
  const answers: RawAnswer[] = [];
  let metrics = '';
  try {
    for (const exchange of exchanges) answers.push(await exchange(gateway.origin));
    metrics = (await send(gateway.origin, { target: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).text();
  } finally {
    await gateway.close();
  }
  const log = await readFile(file, 'utf8');
  const lines = log.trimEnd().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Line);
  expect(gateway.records).toHaveLength(recorded);
  return { answers, lines, log, metrics };
}

function expectLegacyRefusal(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['x-gateway-error']).toBe(code);
  expect(answer.headers['connection']).toBe('close');
  expect(isLegacyError(answer.headers['content-type'], answer.body)).toBe(true);
}

/** The one request line of the log, as an unrouted refusal that answered `answer`. */
function onlyRefusalLine(lines: Line[], answer: RawAnswer, status: number, code: string): Line {
  const requests = lines.filter((line) => line['msg'] === 'request');
  expect(requests).toHaveLength(1);
  const line = requests[0]!;
  expect(line).toMatchObject({ operation: 'unrouted', mode: 'gateway', status, error: code, scheme: 'http', bytesIn: 0, bytesOut: Buffer.byteLength(answer.body) });
  expect(line['latencyMs']).toEqual(expect.any(Number));
  expect(answer.headers['x-request-id']).toBe(line['requestId']);
  return line;
}

describe('refusals made by Node before any request exists are logged', () => {
  it('headers over maxHeaderBytes: 431 answered, one line with the method and the client hash, no secret', async () => {
    const { answers, lines, log } = await logged([oversized]);
    expectLegacyRefusal(answers[0]!, 431, 'headers-too-large');
    expect(answers[0]!.headers['content-type']).toMatch(/json/);
    const line = onlyRefusalLine(lines, answers[0]!, 431, 'headers-too-large');
    expect(line).toMatchObject({ method: 'GET', client: hmac16(`api_key\n${SECRET}`), insecure: true });
    expect(line['user']).toBeUndefined();
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain('title_kw');
  });

  it('headers not finished within headersTimeoutMs: 408 answered, one line, no secret', async () => {
    const { answers, lines, log } = await logged([slowHeaders]);
    expectLegacyRefusal(answers[0]!, 408, 'request-timeout');
    expect(answers[0]!.ms).toBeLessThan(HEADERS_TIMEOUT_MS + 1000);
    const line = onlyRefusalLine(lines, answers[0]!, 408, 'request-timeout');
    expect(line['method']).toBe('UNKNOWN');
    expect(log).not.toContain(SECRET);
  });

  it('a request line that is not HTTP: 400 answered, one line', async () => {
    const { answers, lines } = await logged([garbage]);
    expectLegacyRefusal(answers[0]!, 400, 'bad-request');
    expect(onlyRefusalLine(lines, answers[0]!, 400, 'bad-request')['method']).toBe('UNKNOWN');
  });

  it('CONNECT: 405 with Allow answered (not a silent close), one line with the request id and the hashed user only', async () => {
    const { answers, lines, log } = await logged([tunnel]);
    const answer = answers[0]!;
    expectLegacyRefusal(answer, 405, 'method-not-allowed');
    expect(answer.headers['allow']).toBe('GET, HEAD, POST, PUT, DELETE');
    expect(answer.headers['x-request-id']).toBe('connect-trace-1');
    const line = onlyRefusalLine(lines, answer, 405, 'method-not-allowed');
    expect(line).toMatchObject({ method: 'CONNECT', requestId: 'connect-trace-1', user: hmac16('user\nalice'), insecure: true });
    expect(log).not.toContain('alice-pass');
    expect(log).not.toContain(basic('alice', 'alice-pass').slice('Basic '.length));
  });

  it('all four go to the metrics too, as unrouted 4xx answered by the gateway', async () => {
    const { answers, lines, metrics } = await logged([oversized, slowHeaders, garbage, tunnel]);
    expect(answers.map((answer) => answer.status)).toEqual([431, 408, 400, 405]);
    expect(lines.filter((l) => l['msg'] === 'request').map((l) => l['status'])).toEqual([431, 408, 400, 405]);
    expect(metrics).toMatch(/^gateway_requests_total\{operation="unrouted",mode="gateway",status_class="4xx"\} 4$/m);
    expect(metrics).not.toContain(SECRET);
  });
});

describe('a client that closes its side mid-request went away: no refusal is logged', () => {
  it('mid-headers: no line', async () => {
    const { answers, lines, log } = await logged([halfClosed], 0);
    expect(answers[0]!.status === 0 || answers[0]!.status === 400).toBe(true);
    expect(lines.filter((l) => l['msg'] === 'request')).toEqual([]);
    expect(log).not.toContain(SECRET);
  });
});

describe('a body Node cut while the core held the request', () => {
  it('is logged once, with the 408 the client got (not as client-gone)', async () => {
    const head = `POST /grocerylist?api_key=${SECRET} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
    const slowBody: Exchange = (origin) => rawExchange(origin, [head, ...Array.from({ length: 20 }, () => '     ')], { gapMs: 100, timeoutMs: 3000 });
    const { answers, lines, log } = await logged([slowBody]);
    expectLegacyRefusal(answers[0]!, 408, 'request-timeout');
    const requests = lines.filter((l) => l['msg'] === 'request');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', operation: 'grocery.create', status: 408, error: 'request-timeout', bytesOut: Buffer.byteLength(answers[0]!.body) });
    expect(log).not.toContain(SECRET);
  });
});

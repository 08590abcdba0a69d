/**
 * Shared by the reliability, security, hostile-input and shutdown suites: a real gateway (with its
 * listener stats), a recorder of unhandled rejections, the test process's open sockets, a raw
 * socket client (bytes exactly as given, answer as received) and bounded waiting.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { parseConfig } from '../src/config/schema.js';
import type { GatewayConfigInput } from '../src/config/schema.js';
import type { RequestRecord } from '../src/gateway/request-record.js';
import { startGateway } from '../src/node/server.js';
import type { RunningGateway } from '../src/node/server.js';
import type { UpstreamClient, UpstreamRequest } from '../src/upstream/types.js';

export interface RigGateway {
  readonly origin: string;
  readonly running: RunningGateway;
  readonly records: RequestRecord[];
  close(): Promise<void>;
}

/** A gateway on 127.0.0.1:0, usage log to /dev/null, records collected. */
export async function startRigGateway(overrides: Partial<GatewayConfigInput> & { upstreams: GatewayConfigInput['upstreams'] }): Promise<RigGateway> {
  const parsed = parseConfig({
    listen: { host: '127.0.0.1', port: 0 },
    legacyHosts: ['api.bigoven.com'],
    ...overrides,
    observability: { ...overrides.observability, log: { destination: '/dev/null', ...overrides.observability?.log } },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const records: RequestRecord[] = [];
  const running = await startGateway(parsed.config, { onRecord: (record) => records.push({ ...record }) });
  return { origin: running.httpOrigin, running, records, close: () => running.close() };
}

export interface UpstreamCall {
  readonly upstream: string;
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * An upstream client that answers from an app in process (a sandbox's `fetch`) and records every
 * call in `calls`. A header value a real client could not send makes `new Request` throw, which
 * the gateway then reports as an internal error: nothing is smoothed over.
 */
export function inProcessUpstream(name: string, fetch: (request: Request) => Response | Promise<Response>, calls: UpstreamCall[]): UpstreamClient {
  return {
    name,
    async request(req: UpstreamRequest) {
      calls.push({ upstream: name, method: req.method, target: req.target, headers: req.headers });
      const init: RequestInit = { method: req.method, headers: req.headers };
      if (req.body && req.body.byteLength > 0 && req.method !== 'GET' && req.method !== 'HEAD') init.body = req.body as Uint8Array<ArrayBuffer>;
      const answer = await fetch(new Request(`http://${name}.upstream.invalid${req.target}`, init));
      const headers: Record<string, string | string[]> = {};
      answer.headers.forEach((value, key) => (headers[key] = value));
      const cookies = answer.headers.getSetCookie();
      if (cookies.length > 0) headers['set-cookie'] = cookies;
      return { status: answer.status, headers, body: new Uint8Array(await answer.arrayBuffer()) };
    },
    close: async () => undefined,
  };
}

/** Records unhandled rejections and uncaught exceptions while installed. */
export function recordUnhandled(): { readonly seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown): void => void seen.push(reason);
  const onException = (error: unknown): void => void seen.push(error);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtExceptionMonitor', onException);
  return {
    seen,
    stop: () => {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtExceptionMonitor', onException);
    },
  };
}

/**
 * Open sockets of this process: client and server sides, every server of the test included. On
 * Linux, every socket file descriptor (idle keep-alive sockets that undici unrefs included);
 * elsewhere, the TCP handles `process.getActiveResourcesInfo()` reports.
 */
export function openTcpSockets(): number {
  try {
    let count = 0;
    for (const fd of readdirSync('/proc/self/fd')) {
      try {
        if (readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:')) count += 1;
      } catch {
        // closed while listing
      }
    }
    return count;
  } catch {
    return process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap' || name === 'TLSWrap').length;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface RawAnswer {
  /** 0 when the connection closed without an answer. */
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** Everything received, as latin1. */
  readonly raw: string;
  readonly ms: number;
}

/**
 * Writes `payload` (a string or chunks written `gapMs` apart) to a new connection and reads until
 * the server closes it or `timeoutMs` passes; parses the first answer.
 */
export function rawExchange(origin: string, payload: string | Buffer | ReadonlyArray<string | Buffer>, options: { gapMs?: number; timeoutMs?: number } = {}): Promise<RawAnswer> {
  const url = new URL(origin);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let writer: ReturnType<typeof setTimeout> | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      clearTimeout(writer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks).toString('latin1'), Date.now() - started));
    };
    timer = setTimeout(finish, options.timeoutMs ?? 5000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (complete(Buffer.concat(chunks).toString('latin1'))) finish();
    });
    socket.on('error', () => undefined);
    socket.on('close', finish);
    const parts = typeof payload === 'string' || Buffer.isBuffer(payload) ? [payload] : [...payload];
    const writeNext = (): void => {
      const part = parts.shift();
      if (part === undefined || socket.destroyed) return;
      socket.write(part);
      if (parts.length > 0) writer = setTimeout(writeNext, options.gapMs ?? 0);
    };
    socket.once('connect', writeNext);
  });
}

/** Whether a whole answer (by Content-Length, or the last chunk) has arrived. */
function complete(raw: string): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const head = raw.slice(0, end).toLowerCase();
  const length = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (length) return Buffer.byteLength(raw.slice(end + 4), 'latin1') >= Number(length[1]);
  if (/\r\ntransfer-encoding:\s*chunked/.test(head)) return raw.endsWith('\r\n0\r\n\r\n');
  return / (204|304) /.test(head.split('\r\n')[0] ?? '');
}

function parseAnswer(raw: string, ms: number): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (!raw.startsWith('HTTP/1.') || end === -1) return { status: 0, headers: {}, body: '', raw, ms };
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(end + 4);
  const length = headers['content-length'];
  if (length !== undefined) body = body.slice(0, Number(length));
  else if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = dechunk(body);
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: Buffer.from(body, 'latin1').toString('utf8'), raw, ms };
}

function dechunk(framed: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const lineEnd = framed.indexOf('\r\n', at);
    if (lineEnd === -1) return out;
    const size = parseInt(framed.slice(at, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) return out;
    out += framed.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** Whether a body is a legacy error: JSON `{"Message": "…"}` (optionally ModelState) or XML `<Error>…<Message>`. */
export function isLegacyError(contentType: string | undefined, body: string): boolean {
  if (contentType?.includes('json')) {
    try {
      const parsed = JSON.parse(body) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
      const keys = Object.keys(parsed);
      return typeof (parsed as { Message?: unknown }).Message === 'string' && keys.every((k) => k === 'Message' || k === 'ModelState');
    } catch {
      return false;
    }
  }
  if (contentType?.includes('xml')) return /^<\?xml version="1.0" encoding="utf-8"\?><Error[ >][\s\S]*<Message>[\s\S]*<\/Message>[\s\S]*<\/Error>$/.test(body);
  return false;
}

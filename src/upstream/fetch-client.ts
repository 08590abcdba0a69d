/**
 * A runtime-agnostic upstream client over WHATWG `fetch` (Workers/workerd; also runs on Node): the same
 * contract, error classification and timeout/abort semantics as the undici client
 * (src/upstream/undici-client.ts), for runtimes that have no socket API. No Node-only import.
 *
 * - One whole-exchange deadline (connect, headers and body) per request; the client going away
 *   aborts the exchange. A timeout is `timeout`, a client abort `aborted`, as with undici.
 * - The answer is read chunk by chunk and counted; past `maxResponseBytes` the read is cancelled
 *   and the exchange fails as `too-large` (the limit applies to the bytes as read, after any
 *   decoding by the runtime, so a small compressed answer cannot expand past it either).
 * - Redirects are never followed (`redirect: 'manual'`): a 3xx goes back to the client as sent.
 * - Nothing is retried here.
 *
 * DECISION (content coding): fetch decodes compressed answers and cannot hand over the encoded
 * bytes, so a decoded answer loses `content-encoding`, gets its length recomputed and a weak ETag;
 * the upstream is asked for gzip only when the client accepts it. The rules, per runtime, and why:
 * docs/deploy.md, "Content coding on the edge".
 */
import { UpstreamError } from './types.js';
import type { UpstreamClient, UpstreamFailure, UpstreamRequest, UpstreamResponse } from './types.js';
import { readWithin } from '../http/bounded-read.js';
import { carriesBody } from '../http/answer.js';
import { negotiateEncoding } from '../request/encoding.js';

export interface FetchUpstreamOptions {
  readonly name: string;
  /** `http(s)://host:port[/base/path]`; the base path is prefixed to every target. */
  readonly baseUrl: string;
  readonly maxResponseBytes: number;
  /** The fetch to use (a service binding's, a test's); the global one by default. */
  readonly fetch?: typeof fetch;
}

/** Codings every fetch implementation we run on decodes before handing us the body. */
const DECODED_BY_FETCH = new Set(['gzip', 'x-gzip', 'br']);

/** Node's fetch (undici) puts a system error code on `error.cause`. */
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

export function createFetchUpstream(options: FetchUpstreamOptions): UpstreamClient {
  const base = new URL(options.baseUrl);
  // Origin and base path are fixed by config; the target is an already normalised origin-form
  // path (no dot segments, no `//`), so appending it cannot change the origin (proxy-lessons:
  // never `new URL(rawPath, base)`).
  const prefix = base.origin + base.pathname.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function request(req: UpstreamRequest): Promise<UpstreamResponse> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, req.timeoutMs);
    const onClientAbort = (): void => controller.abort();
    req.signal?.addEventListener('abort', onClientAbort, { once: true });
    if (req.signal?.aborted) controller.abort();

    let stage: 'send' | 'body' = 'send';
    try {
      const hasBody = req.body !== undefined && req.body !== null && req.body.byteLength > 0 && req.method !== 'GET' && req.method !== 'HEAD';
      const response = await doFetch(prefix + req.target, {
        method: req.method,
        headers: upstreamHeaders(req.headers),
        body: hasBody ? (req.body as Uint8Array<ArrayBuffer>) : null,
        redirect: 'manual',
        signal: controller.signal,
      });
      stage = 'body';
      const body = await readBody(response, options.maxResponseBytes, options.name);
      return { status: response.status, headers: answerHeaders(response.headers, req.method, response.status, body), body };
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      throw classify(error, options.name, { timedOut, clientAborted: req.signal?.aborted === true, stage, timeoutMs: req.timeoutMs });
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onClientAbort);
    }
  }

  return { name: options.name, request, close: async () => {} };
}

/** The request headers with `accept-encoding` decided as above (names are lower-case). */
function upstreamHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...headers };
  out['accept-encoding'] = negotiateEncoding(headers['accept-encoding']);
  return out;
}

/** Lower-case names; `set-cookie` kept as separate values; decoded-body headers fixed (see above). */
function answerHeaders(headers: Headers, method: string, status: number, body: Uint8Array): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = typeof headers.getSetCookie === 'function' ? headers.getSetCookie() : [];
  if (cookies.length === 1) out['set-cookie'] = cookies[0] as string;
  else if (cookies.length > 1) out['set-cookie'] = cookies;

  const coding = out['content-encoding'];
  if (typeof coding === 'string') {
    const codings = coding.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
    if (codings.length === 0) {
      delete out['content-encoding'];
    } else if (codings.every((c) => DECODED_BY_FETCH.has(c) || (c === 'deflate' && body.byteLength > 0 && !startsWithZlibHeader(body)))) {
      delete out['content-encoding'];
      delete out['content-length'];
      // The length of the decoded bytes we hold, when they are what the client will receive.
      if (carriesBody(method, status) && body.byteLength > 0) out['content-length'] = String(body.byteLength);
      const etag = out['etag'];
      if (typeof etag === 'string' && etag.startsWith('"')) out['etag'] = `W/${etag}`;
    }
  }
  return out;
}

/** RFC 1950 header: compression method 8 (deflate) and a check value making CMF·256+FLG a multiple of 31. */
function startsWithZlibHeader(body: Uint8Array): boolean {
  const cmf = body[0];
  const flg = body[1];
  if (cmf === undefined || flg === undefined) return false;
  return (cmf & 0x0f) === 8 && (cmf >> 4) <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

async function readBody(response: Response, max: number, upstream: string): Promise<Uint8Array> {
  const body = await readWithin(response.body, max);
  if (body === null) throw new UpstreamError('too-large', upstream, true, `upstream '${upstream}' answered more than ${max} bytes`);
  return body;
}

interface FailureContext {
  readonly timedOut: boolean;
  readonly clientAborted: boolean;
  /** `send`: before the answer's headers arrived; `body`: while reading the answer. */
  readonly stage: 'send' | 'body';
  readonly timeoutMs: number;
}

/**
 * fetch reports every network failure as a `TypeError`: Node adds the system code on `cause`
 * (ECONNREFUSED: `connect`, not sent), workerd gives only a message, and the same one for a
 * refused connection and a connection lost mid-answer ("Network connection lost."), or an opaque
 * "internal error; reference = …" for DNS, TLS and unparseable answers. What cannot be shown to
 * have failed before sending is `reset` with `sent: true`: a write whose outcome is unknown is
 * then reported as such, and never retried.
 */
function classify(error: unknown, upstream: string, context: FailureContext): UpstreamError {
  const fail = (failure: UpstreamFailure, sent: boolean, message: string) => new UpstreamError(failure, upstream, sent, message);
  if (context.timedOut) return fail('timeout', true, `upstream '${upstream}' did not answer within ${context.timeoutMs} ms`);
  if (context.clientAborted) return fail('aborted', true, 'the client went away');

  const cause = (error as { cause?: unknown } | null)?.cause;
  const code = String((cause as { code?: unknown } | null)?.code ?? (error as { code?: unknown } | null)?.code ?? '');
  const message = describe(error);
  if (context.stage === 'send') {
    if (CONNECT_CODES.has(code) || code.includes('CERT') || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL')) {
      return fail('connect', false, `could not connect to upstream '${upstream}' (${code})`);
    }
    // workerd: "Network connection lost." after sending; connect and TLS failures name themselves.
    if (/connect|refused|dns|certificate|tls|handshake|unreachable/i.test(message) && !/lost|reset/i.test(message)) {
      return fail('connect', false, `could not connect to upstream '${upstream}' (${message})`);
    }
  }
  if (code.startsWith('HPE_') || code === 'UND_ERR_INFO' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || /invalid|parse|malformed|incorrect header|decompress|zlib/i.test(message)) {
    return fail('protocol', true, `upstream '${upstream}' sent an invalid HTTP answer (${code || message})`);
  }
  return fail('reset', true, `the connection to upstream '${upstream}' broke (${code || message})`);
}

function describe(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 3; depth++) {
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') parts.push(message);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(': ') || String(error);
}

/**
 * The Node upstream client: one undici `Pool` per upstream origin, keep-alive, no retries.
 *
 * - Bodies are read as raw bytes: undici does not decompress, so `content-encoding` and the
 *   encoded bytes pass through untouched (proxy-lessons, headers and bodies).
 * - The answer is buffered up to `maxResponseBytes`; past that the exchange fails as `too-large`.
 * - The idle keep-alive timeout stays below the usual backend's 5 s, so the gateway never reuses a
 *   socket the backend is closing (proxy-lessons, upstream errors).
 * - Nothing is retried here; a caller that wants a retry must own that decision.
 */
import { EventEmitter } from 'node:events';
import { Pool, errors as undiciErrors } from 'undici';
import type { Dispatcher } from 'undici';
import { UpstreamError } from './types.js';
import type { UpstreamClient, UpstreamFailure, UpstreamRequest, UpstreamResponse } from './types.js';

export interface UndiciUpstreamOptions {
  readonly name: string;
  /** `http(s)://host:port[/base/path]`; the base path is prefixed to every target. */
  readonly baseUrl: string;
  readonly connections: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxResponseBytes: number;
  /** PEM certificate authorities trusted for an https upstream (verification is never turned off). */
  readonly ca?: string;
}

/** How long close() lets requests in flight finish before it cuts them. */
const CLOSE_GRACE_MS = 2_000;

const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

export function createUndiciUpstream(options: UndiciUpstreamOptions): UpstreamClient {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const pool = new Pool(base.origin, {
    connections: options.connections,
    keepAliveTimeout: options.keepAliveTimeoutMs,
    keepAliveMaxTimeout: options.keepAliveTimeoutMs,
    pipelining: 1,
    ...(options.ca ? { connect: { ca: options.ca } } : {}),
  });

  async function request(req: UpstreamRequest): Promise<UpstreamResponse> {
    // undici takes an EventEmitter as its abort signal: cheaper than an AbortController per request.
    const abort = new EventEmitter();
    let aborted = false;
    let timedOut = false;
    const stop = (): void => {
      if (aborted) return;
      aborted = true;
      abort.emit('abort');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, req.timeoutMs);
    const onClientAbort = stop;
    if (req.signal?.aborted) {
      clearTimeout(timer);
      throw new UpstreamError('aborted', options.name, false, 'the client went away');
    }
    req.signal?.addEventListener('abort', onClientAbort, { once: true });

    let data: Dispatcher.ResponseData | undefined;
    try {
      data = await pool.request({
        method: req.method as Dispatcher.HttpMethod,
        path: basePath + req.target,
        headers: req.headers,
        body: req.body && req.body.byteLength > 0 ? req.body : null,
        signal: abort,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      });
      const length = data.headers['content-length'];
      const declared = typeof length === 'string' && /^[0-9]+$/.test(length) ? Number(length) : undefined;
      const body = await readBody(data.body, declared, options.maxResponseBytes, options.name);
      return { status: data.statusCode, headers: data.headers as Record<string, string | string[]>, body };
    } catch (error) {
      data?.body.destroy();
      if (error instanceof UpstreamError) throw error;
      throw classify(error, options.name, timedOut, req.timeoutMs);
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onClientAbort);
    }
  }

  return {
    name: options.name,
    request,
    // Graceful: requests in flight may finish; past the grace period (background shadow calls,
    // a hung upstream) the pool is destroyed so a shutdown never waits on an upstream.
    close: async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), CLOSE_GRACE_MS)));
      const closed = await Promise.race([pool.close().then(() => 'closed' as const), grace]);
      clearTimeout(timer);
      if (closed === 'late') await pool.destroy();
    },
  };
}

async function readBody(body: Dispatcher.ResponseData['body'], declaredLength: number | undefined, max: number, upstream: string): Promise<Uint8Array> {
  const tooLarge = () => new UpstreamError('too-large', upstream, true, `upstream '${upstream}' answered more than ${max} bytes`);
  if (declaredLength !== undefined) {
    // A declared length within the limit: one read of the whole body (undici checks the length).
    if (declaredLength > max) {
      body.destroy();
      throw tooLarge();
    }
    return new Uint8Array(await body.arrayBuffer());
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    total += buffer.byteLength;
    if (total > max) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(buffer);
  }
  if (chunks.length === 1) return chunks[0] as Buffer;
  return Buffer.concat(chunks, total);
}

function classify(error: unknown, upstream: string, timedOut: boolean, timeoutMs: number): UpstreamError {
  const code = (error as { code?: string } | null)?.code ?? '';
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new UpstreamError('timeout', upstream, true, `upstream '${upstream}' did not answer within ${timeoutMs} ms`);
  }
  if (error instanceof undiciErrors.RequestAbortedError || (error as Error | null)?.name === 'AbortError') {
    return new UpstreamError('aborted', upstream, true, 'the client went away');
  }
  if (CONNECT_CODES.has(code) || code.includes('CERT') || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL')) {
    return new UpstreamError('connect', upstream, false, `could not connect to upstream '${upstream}' (${code})`);
  }
  if (code.startsWith('HPE_') || code === 'UND_ERR_INFO' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return new UpstreamError('protocol', upstream, true, `upstream '${upstream}' sent an invalid HTTP answer (${code})`);
  }
  const reason = code || (error as Error | null)?.message || 'unknown error';
  return new UpstreamError('reset', upstream, true, `the connection to upstream '${upstream}' broke (${reason})`);
}

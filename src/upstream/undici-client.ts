/**
 * The Node upstream client: one undici `Pool` per upstream origin, keep-alive, no retries.
 *
 * - Bodies are read as raw bytes: undici does not decompress, so `content-encoding` and the
 *   encoded bytes pass through untouched (proxy-lessons, headers and bodies).
 * - The answer is buffered up to `maxResponseBytes`; past that the exchange fails as `too-large`.
 * - The idle keep-alive timeout stays below the usual backend's 5 s, so the gateway never reuses a
 *   socket the backend is closing (proxy-lessons, upstream errors).
 * - Nothing is retried here; a caller that wants a retry must own that decision.
 * - An unsolicited `100 Continue` is skipped (RFC 9110 §15.2; src/upstream/interim-continue-filter.ts),
 *   other 1xx answers are skipped by the handler: the client gets the final answer.
 */
import { Pool, buildConnector, errors as undiciErrors, util } from 'undici';
import type { Dispatcher } from 'undici';
import { dropInterimContinue } from './interim-continue-filter.js';
import { UpstreamError } from './types.js';
import type { AbortSignalLike, UpstreamClient, UpstreamRequest, UpstreamResponse } from './types.js';

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
  const connect = buildConnector(options.ca ? { ca: options.ca } : {});
  const pool = new Pool(base.origin, {
    connections: options.connections,
    keepAliveTimeout: options.keepAliveTimeoutMs,
    keepAliveMaxTimeout: options.keepAliveTimeoutMs,
    // One request per connection at a time: the interim-answer filter relies on it.
    pipelining: 1,
    connect: (opts, callback) => connect(opts, (error, socket) => (error ? callback(error, null) : callback(null, dropInterimContinue(socket!)))),
  });

  function request(req: UpstreamRequest): Promise<UpstreamResponse> {
    if (req.signal?.aborted) return Promise.reject(new UpstreamError('aborted', options.name, false, 'the client went away'));
    return new Promise((resolve, reject) => {
      const exchange = new Exchange(options.name, options.maxResponseBytes, req, resolve, reject);
      pool.dispatch(
        {
          method: req.method as Dispatcher.HttpMethod,
          path: basePath + req.target,
          headers: req.headers,
          body: req.body && req.body.byteLength > 0 ? req.body : null,
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
        },
        exchange,
      );
    });
  }

  return {
    name: options.name,
    request,
    stats: () => {
      const { connected, free, running, pending } = pool.stats;
      return { connected, idle: free, inFlight: running, waiting: pending };
    },
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

/**
 * One exchange, as an undici dispatch handler. It implements undici's original handler methods
 * (`onConnect`, `onHeaders`, `onData`, `onComplete`, `onError`), which the HTTP/1.1 client calls
 * directly: a handler with the newer `onRequestStart` … `onResponseError` methods is wrapped per
 * request in an adapter that allocates a controller and parses the headers on its own (measured
 * as 3.5-6.8 % of the client's CPU per call). The answer's chunks are collected as undici hands
 * them over (no body stream, no promise per read), within `maxResponseBytes`, and the whole
 * exchange has one deadline. A request still queued for a connection when it is cancelled (the
 * deadline, the client gone) is never written: undici calls `onConnect` first, and is told to
 * abort.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private abortUndici: ((reason?: Error) => void) | undefined;
  private settled = false;
  /** Set once the request is written to a connection: a failure after that has an unknown outcome. */
  private sent = false;
  private status = 0;
  private headers: Record<string, string | string[]> = {};
  private readonly chunks: Buffer[] = [];
  private total = 0;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onClientGone: (() => void) | undefined;
  private readonly timeoutMs: number;
  /** The client's signal, until the exchange settles (then let go: see `finish`). */
  private signal: AbortSignalLike | undefined;

  constructor(
    private readonly upstream: string,
    private readonly max: number,
    req: UpstreamRequest,
    private readonly resolve: (answer: UpstreamResponse) => void,
    private readonly reject: (error: UpstreamError) => void,
  ) {
    this.timeoutMs = req.timeoutMs;
    this.timer = setTimeout(() => this.cancel(timeoutError(this.upstream, this.sent, this.timeoutMs)), req.timeoutMs);
    if (req.signal) {
      this.signal = req.signal;
      this.onClientGone = () => this.cancel(new UpstreamError('aborted', this.upstream, this.sent, 'the client went away'));
      req.signal.addEventListener('abort', this.onClientGone, { once: true });
    }
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.settled) {
      abort(new undiciErrors.RequestAbortedError());
      return;
    }
    this.abortUndici = abort;
    this.sent = true;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // An interim answer (102, 103): the final one follows (RFC 9110 §15.2).
    if (this.settled || statusCode < 200) return true;
    this.status = statusCode;
    this.headers = util.parseHeaders(rawHeaders) as Record<string, string | string[]>;
    const declared = this.headers['content-length'];
    if (declared !== undefined && Number(declared) > this.max) this.cancel(this.tooLarge());
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return true;
    this.total += chunk.byteLength;
    if (this.total > this.max) {
      this.cancel(this.tooLarge());
      return true;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    this.finish();
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.total);
    this.resolve({ status: this.status, headers: this.headers, body });
  }

  onError(error: Error): void {
    if (this.settled) return;
    this.finish();
    // Our own deadline and the client leaving settle the exchange first (cancel): what undici
    // reports after that is ignored above, so only undici's own failures are classified here.
    this.reject(classify(error, this.upstream, this.timeoutMs));
  }

  private tooLarge(): UpstreamError {
    return new UpstreamError('too-large', this.upstream, true, `upstream '${this.upstream}' answered more than ${this.max} bytes`);
  }

  /** Settles now with `error`, and stops undici's side of the exchange (or keeps it from starting). */
  private cancel(error: UpstreamError): void {
    if (this.settled) return;
    this.finish();
    this.reject(error);
    this.abortUndici?.(new undiciErrors.RequestAbortedError());
  }

  /**
   * Also lets go of the client's signal, the one link from a settled exchange to the client's
   * request and response: undici keeps a settled exchange reachable for a while, and through the
   * signal it kept those alive too, which sent about 1 process in 3 into promoting ~2 MB of dead
   * requests per scavenge (docs/benchmarks-anchors.md, "Promotion"). Nothing else here refers
   * to the request after the constructor, closures included.
   */
  private finish(): void {
    this.settled = true;
    clearTimeout(this.timer);
    if (this.onClientGone) this.signal?.removeEventListener('abort', this.onClientGone);
    this.signal = undefined;
  }
}

function timeoutError(upstream: string, sent: boolean, timeoutMs: number): UpstreamError {
  return new UpstreamError('timeout', upstream, sent, `upstream '${upstream}' did not answer within ${timeoutMs} ms`);
}

function classify(error: unknown, upstream: string, timeoutMs: number): UpstreamError {
  const code = (error as { code?: string } | null)?.code ?? '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return timeoutError(upstream, true, timeoutMs);
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

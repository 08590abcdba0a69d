/**
 * Starting the gateway on Node: the upstream clients (undici pools), the core app, and the
 * listeners (plain HTTP, and HTTPS when a certificate is configured).
 */
import { readFile } from 'node:fs/promises';
import { STATUS_CODES, createServer } from 'node:http';
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import type { HttpBindings } from '@hono/node-server';
import type { GatewayConfig } from '../config/schema.js';
import { renderError, wantsJson } from '../legacy/render.js';
import type { RecordSink } from '../gateway/request-record.js';
import type { ShadowRecord } from '../traffic/shadow.js';
import { createAdminApp } from '../observability/admin-routes.js';
import { emitAfterWrite } from '../observability/node/emit-after-write.js';
import { createNodeObservability } from '../observability/node/wiring.js';
import type { NodeObservability } from '../observability/node/wiring.js';
import type { RecordEmitter } from '../observability/record-emitter.js';
import { finishRefusal, startRefusal } from '../observability/refusal-record.js';
import type { Refusal, RefusalObserver } from '../observability/refusal-record.js';
import { REQUEST_ID_HEADER } from '../observability/request-id.js';
import { Generations } from './generations.js';
import type { ReloadOutcome } from './generations.js';
import { configView, trafficView } from './admin-views.js';
import { createNodeListener } from './listener.js';
import { nodeRuntime } from './runtime.js';

export interface RunningGateway {
  /** `http://host:port` of the plain listener. */
  readonly httpOrigin: string;
  /** `https://host:port` of the TLS listener, when configured. */
  readonly httpsOrigin: string | undefined;
  /** `http://host:port` of the admin listener (metrics), when configured. */
  readonly adminOrigin: string | undefined;
  /** Where the metrics can be read, and how; undefined when they are not served. */
  readonly metricsUrl: string | undefined;
  /** Things the operator should know (for example: metrics not served, no hash key). */
  readonly notes: readonly string[];
  /** `drain(limits.shutdownGraceMs)`, then resolves. */
  close(): Promise<void>;
  /**
   * Graceful stop: stops accepting connections at once, closes idle keep-alive connections, lets
   * the requests in flight finish (their answers say `Connection: close`) for up to `deadlineMs`,
   * then cuts what is left; then closes the upstream pools and writes out the usage log.
   * Called again while draining, it can only bring the deadline closer; it resolves with the
   * same outcome.
   */
  drain(deadlineMs: number): Promise<DrainOutcome>;
  /** Client connections open and requests in flight on the listeners (admin listener excluded). */
  stats(): ListenerStats;
  /** Puts a validated config in force (hot reload); requests in flight finish on the old one. */
  reload(config: GatewayConfig): Promise<ReloadOutcome>;
  /** The version of the config in force (1 at start, +1 per reload). */
  version(): number;
  /** Writes an operator event (not a request) to the usage log, when it is on. */
  event(name: string, fields: Record<string, unknown>): void;
}

export interface DrainOutcome {
  /** Every request in flight was answered before the deadline. */
  readonly drained: boolean;
  /** Requests still unanswered at the deadline, whose connections were cut. */
  readonly cut: number;
  /** Time from the call to the listeners being closed. */
  readonly ms: number;
}

export interface ListenerStats {
  readonly connections: number;
  readonly inFlight: number;
}

export interface StartOptions {
  /** Also receives every request record (after the usage log and the metrics). */
  readonly onRecord?: RecordSink;
  /** Also receives every shadow comparison (after the usage log, where it is a `msg: "shadow"` line). */
  readonly onShadow?: (record: ShadowRecord) => void;
}

export async function startGateway(config: GatewayConfig, options: StartOptions = {}): Promise<RunningGateway> {
  let generations: Generations | undefined;
  const observability = createNodeObservability(config, options.onRecord, [
    { path: '/admin/config', render: () => (generations ? configView(generations.active) : {}) },
    { path: '/admin/traffic', render: () => (generations ? trafficView(generations.active) : {}) },
  ]);
  generations = await Generations.start(config, {
    runtime: nodeRuntime,
    onRecord: observability.sink,
    identifier: observability.identifier,
    emitRecord: emitAnsweredByNode,
    onShadow: shadowSink(observability, options.onShadow),
    onBreaker: (upstream, from, to) => observability.usageLog?.event('breaker', { upstream, from, to }),
    admin: observability.mainAdmin,
  });
  const observer: RefusalObserver | undefined = observability.sink ? { sink: observability.sink, identifier: observability.identifier } : undefined;
  const listener = createNodeListener(generations.target, {
    legacyHosts: config.legacyHosts,
    maxUrlLength: config.limits.maxUrlLength,
    observer,
  });

  const servers: Server[] = [];
  const tracker = new ListenerTracker(observer);
  const nodeOptions = serverOptions(config);
  const plain = tracker.watch(createServer(nodeOptions, tracker.wrap(listener)), config);
  servers.push(plain);
  const httpOrigin = await listen(plain, config.listen.host, config.listen.port, 'http');

  let httpsOrigin: string | undefined;
  if (config.listen.https) {
    const [cert, key] = await Promise.all([readFile(config.listen.https.certFile), readFile(config.listen.https.keyFile)]);
    const secure = tracker.watch(createHttpsServer({ ...nodeOptions, cert, key }, tracker.wrap(listener)), config);
    servers.push(secure);
    httpsOrigin = await listen(secure, config.listen.host, config.listen.https.port, 'https');
  }

  let adminOrigin: string | undefined;
  if (observability.adminListener) {
    const { routes, host, port } = observability.adminListener;
    const admin = createServer(nodeOptions, getRequestListener(createAdminApp(routes).fetch));
    servers.push(admin);
    adminOrigin = await listen(admin, host, port, 'http');
  }
  const metricsPath = config.observability.metrics.path;
  const metricsUrl = adminOrigin ? `${adminOrigin}${metricsPath}` : observability.mainAdmin ? `${httpOrigin}${metricsPath} (bearer token)` : undefined;

  let draining: Promise<DrainOutcome> | undefined;
  let cutAt = Infinity;
  let reschedule: (() => void) | undefined;
  function drain(deadlineMs: number): Promise<DrainOutcome> {
    cutAt = Math.min(cutAt, Date.now() + Math.max(0, deadlineMs));
    reschedule?.();
    draining ??= (async () => {
      const started = Date.now();
      tracker.beginDrain();
      const closed = Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
      // Connections whose last answer went out before the drain began turn idle later: close them as they do.
      const sweep = setInterval(() => {
        for (const server of servers) server.closeIdleConnections();
      }, 20);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => {
        reschedule = () => {
          clearTimeout(timer);
          timer = setTimeout(() => resolve('late'), Math.max(0, cutAt - Date.now()));
        };
        reschedule();
      });
      const outcome = await Promise.race([closed.then(() => 'drained' as const), late]);
      clearTimeout(timer);
      clearInterval(sweep);
      let cut = 0;
      if (outcome === 'late') {
        cut = tracker.stats().inFlight;
        for (const server of servers) server.closeAllConnections();
        await closed;
      }
      const ms = Date.now() - started;
      await generations?.close();
      await observability.close();
      return { drained: outcome === 'drained', cut, ms };
    })();
    return draining;
  }

  return {
    httpOrigin,
    httpsOrigin,
    adminOrigin,
    metricsUrl,
    notes: observability.notes,
    close: async () => {
      await drain(config.limits.shutdownGraceMs);
    },
    drain,
    stats: () => tracker.stats(),
    reload: async (next) => {
      if (!generations) throw new Error('gateway not started');
      const outcome = await generations.reload(next);
      observability.usageLog?.event('config', { version: outcome.version, needsRestart: outcome.needsRestart });
      return outcome;
    },
    version: () => generations?.active.version ?? 0,
    event: (name, fields) => observability.usageLog?.event(name, fields),
  };
}

/** Node's server options from `limits`: header size (431), slowloris timeouts (408), client keep-alive. */
function serverOptions(config: GatewayConfig): ServerOptions {
  const { maxHeaderBytes, headersTimeoutMs, requestTimeoutMs, clientKeepAliveTimeoutMs } = config.limits;
  return {
    maxHeaderSize: maxHeaderBytes,
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: clientKeepAliveTimeoutMs,
    // Node checks both timeouts only this often (30 s by default, which would let a slowloris
    // client hold a connection for 40 s with a 10 s headersTimeout).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
  };
}

/**
 * Counts connections and requests in flight on the gateway's listeners, marks answers written
 * while draining `Connection: close`, and answers what Node refuses before any request exists
 * (oversized headers, slowloris, broken HTTP) and CONNECT in the legacy error shape, recording
 * each answer like the listener's own refusals (usage log, metrics).
 */
class ListenerTracker {
  private draining = false;
  private readonly sockets = new Set<Socket>();
  private readonly answering = new Set<ServerResponse>();

  constructor(private readonly observer: RefusalObserver | undefined) {}

  wrap(listener: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      const answering = this.answering;
      answering.add(res);
      res.once('close', () => answering.delete(res));
      if (this.draining) res.shouldKeepAlive = false;
      listener(req, res);
    };
  }

  watch<S extends Server>(server: S, config: GatewayConfig): S {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    server.on('clientError', (error: ClientError, socket: Duplex) => answerClientError(error, socket, config, this.observer));
    server.on('connect', (req: IncomingMessage, socket: Duplex) => answerConnect(req, socket, this.observer));
    return server;
  }

  /** From now on, every answer not yet started closes its connection once written. */
  beginDrain(): void {
    this.draining = true;
    for (const res of this.answering) if (!res.headersSent) res.shouldKeepAlive = false;
  }

  stats(): ListenerStats {
    return { connections: this.sockets.size, inFlight: this.answering.size };
  }
}

type ClientError = Error & { code?: string; rawPacket?: Buffer };

const JSON_IN_HEADERS = /\r\n(?:accept|content-type)[ \t]*:[^\r\n]*application\/json/i;
/** `METHOD SP target SP HTTP/1.x`, the first line of a request Node refused before parsing it all. */
const REQUEST_LINE = /^([A-Z][A-Z_-]{0,31}) (\S+) HTTP\/1\.[01]\r?$/;

interface NodeAnswer {
  readonly status: number;
  readonly code: string;
  /** Body bytes written. */
  readonly bytesOut: number;
}

/**
 * Answers Node made itself (a 408, 400 or 413 written by `answerClientError`) on a request the
 * core app was already handling: its body came too slowly or broke HTTP. The core still records
 * that request (as `client-gone`, once the body read fails); `emitAnsweredByNode` makes that one
 * record say what the client got instead.
 */
const answeredByNode = new WeakMap<ServerResponse, NodeAnswer>();

/**
 * The core's record emitter on Node. With the usage log off (metrics only) the core emits at once
 * and such a request stays counted as the core saw it (499 `client-gone`).
 */
const emitAnsweredByNode: RecordEmitter = (c, record, sink) => {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing as ServerResponse | undefined;
  const told = outgoing && answeredByNode.get(outgoing);
  if (told) {
    record.status = told.status;
    record.error = told.code;
    record.bytesOut = told.bytesOut;
  }
  emitAfterWrite(c, record, sink);
};

/**
 * What Node refuses before the gateway sees a request, answered in the legacy error shape and
 * recorded (operation `unrouted`). What the record knows: the method and target when the first
 * bytes hold a well-formed request line (the target only hashes the client: it is not kept), else
 * method `UNKNOWN`; never a header (no request id from the client, no user).
 */
function answerClientError(error: ClientError, socket: Duplex, config: GatewayConfig, observer: RefusalObserver | undefined): void {
  const pending = (socket as { _httpMessage?: ServerResponse })._httpMessage;
  const refusal = describeClientError(error.code ?? '', config);
  if (!refusal || !socket.writable || pending?.headersSent) {
    // Nobody gets an answer, so nothing is recorded here (a record is of an answer); a request the
    // core was handling is recorded by the core, as `client-gone`.
    socket.destroy();
    return;
  }
  // JSON or XML as the legacy rule says, from the headers when Node parsed them (a body that came
  // too slowly), else from the raw bytes that overflowed; XML when nothing tells.
  const parsed = pending?.req?.headers;
  const json = parsed
    ? wantsJson(single(parsed.accept), single(parsed['content-type']))
    : error.rawPacket !== undefined && JSON_IN_HEADERS.test(error.rawPacket.toString('latin1'));
  if (error.code === 'HPE_INVALID_EOF_STATE') {
    // The client closed its side mid-request: it went away, nothing was refused. The answer still
    // goes to a client that only half-closed, but is not recorded here; a request the core held is
    // recorded by the core, as `client-gone`.
    writeAnswer(socket, refusal, json, '');
    return;
  }
  if (pending) {
    const bytesOut = writeAnswer(socket, refusal, json, '');
    answeredByNode.set(pending, { status: refusal.status, code: refusal.code, bytesOut });
    return;
  }
  const line = requestLineOf(error.rawPacket);
  answerRecorded(socket, refusal, json, '', observer, {
    method: line?.[1] ?? 'UNKNOWN',
    rawTarget: line?.[2] ?? '',
  });
}

/** Tunnels are not offered: CONNECT gets 405 in the legacy error shape, recorded like any refusal. */
function answerConnect(req: IncomingMessage, socket: Duplex, observer: RefusalObserver | undefined): void {
  // Node has handed the socket over, without its own error handler.
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy(); // no answer, no record
    return;
  }
  const refusal = { status: 405, code: 'method-not-allowed', message: 'The CONNECT method is not allowed: this gateway does not open tunnels.' };
  answerRecorded(socket, refusal, wantsJson(single(req.headers.accept), single(req.headers['content-type'])), 'Allow: GET, HEAD, POST, PUT, DELETE\r\n', observer, {
    method: req.method ?? 'CONNECT',
    rawTarget: req.url ?? '',
    requestIdHeader: single(req.headers[REQUEST_ID_HEADER]),
    authorization: req.headers.authorization,
    contentLength: req.headers['content-length'],
  });
}

type NodeRefusal = { readonly status: number; readonly code: string; readonly message: string };
/** What the client sent, as far as it is known. */
type Sent = Pick<Refusal, 'method' | 'rawTarget' | 'requestIdHeader' | 'authorization' | 'contentLength'>;

/** Writes the answer and hands its record to the observer (with the request id in the answer when the usage log is on). */
function answerRecorded(socket: Duplex, refusal: NodeRefusal, json: boolean, extraHead: string, observer: RefusalObserver | undefined, sent: Sent): void {
  if (!observer) {
    writeAnswer(socket, refusal, json, extraHead);
    return;
  }
  // Node does not say when a refused request began: the record's clock starts at the refusal.
  const startedPerf = performance.now();
  const record = startRefusal(observer, {
    ...sent,
    tls: (socket as { encrypted?: boolean }).encrypted === true,
    absoluteForm: /^https?:\/\//i.test(sent.rawTarget),
    startedAt: Date.now(),
    startedPerf,
  });
  const idHead = observer.identifier ? `X-Request-Id: ${record.requestId}\r\n` : '';
  const bytesOut = writeAnswer(socket, refusal, json, extraHead + idHead);
  finishRefusal(observer, record, refusal.status, refusal.code, bytesOut, startedPerf);
}

/** Writes a legacy-shaped error and closes the connection; returns the body's byte length. */
function writeAnswer(socket: Duplex, refusal: NodeRefusal, json: boolean, extraHead: string): number {
  const rendered = renderError(refusal.status, refusal.message, json);
  const body = Buffer.from(rendered.body, 'utf8');
  const head =
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n` +
    `Content-Type: ${rendered.contentType}\r\nContent-Length: ${body.byteLength}\r\n` +
    `X-Gateway-Error: ${refusal.code}\r\n${extraHead}Cache-Control: no-store\r\nConnection: close\r\n\r\n`;
  const guard = setTimeout(() => socket.destroy(), 1000);
  guard.unref();
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]), () => {
    clearTimeout(guard);
    socket.destroy();
  });
  return body.byteLength;
}

/** The request line at the start of the bytes Node refused, when there is a well-formed one. */
function requestLineOf(raw: Buffer | undefined): RegExpExecArray | null {
  if (raw === undefined) return null;
  const end = raw.indexOf(0x0a);
  return end === -1 ? null : REQUEST_LINE.exec(raw.toString('latin1', 0, end));
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function describeClientError(code: string, config: GatewayConfig): NodeRefusal | null {
  const { maxHeaderBytes, headersTimeoutMs, requestTimeoutMs } = config.limits;
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, code: 'headers-too-large', message: `Request header fields too large: the request line and headers exceed ${maxHeaderBytes} bytes.` };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      code: 'request-timeout',
      message: `Request timeout: the headers must arrive within ${headersTimeoutMs} ms and the whole request within ${requestTimeoutMs} ms.`,
    };
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return { status: 413, code: 'body-too-large', message: 'The chunk extensions of the request body are too large.' };
  }
  if (code.startsWith('HPE_')) return { status: 400, code: 'bad-request', message: 'The request is not valid HTTP/1.1.' };
  return null;
}

function listen(server: Server, host: string, port: number, scheme: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve(`${scheme}://${shown}:${address.port}`);
    });
  });
}

function shadowSink(observability: NodeObservability, extra: StartOptions['onShadow']): ((record: ShadowRecord) => void) | undefined {
  const log = observability.usageLog;
  if (!log) return extra;
  return (record) => {
    log.event('shadow', record);
    extra?.(record);
  };
}

/**
 * Node-only: the answers Node's HTTP server makes before (or instead of) the core app, in the
 * legacy error shape, each recorded like the listener's own refusals (usage log, metrics):
 *
 *   clientError   oversized headers 431, slow headers or request 408, broken HTTP 400,
 *                 chunk-extension overflow 413
 *   connect       CONNECT 405: this gateway opens no tunnels
 *
 * A request the core was already handling when Node cut it (a slow or broken body) keeps the
 * core's one record: the core, finding its body unreadable, asks the Node bindings what Node
 * answered (ArrivingRequest.answeredByNode, src/node/listener.ts) and records that.
 */
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { GatewayConfig } from '../config/schema.js';
import { singleValue } from '../http/headers.js';
import { renderError, wantsJson } from '../legacy/answer-body.js';
import { recordRefusal, refusalArrival } from '../observability/refusal-record.js';
import type { Refusal, RefusalObserver } from '../observability/refusal-record.js';
import { REQUEST_ID_HEADER } from '../request/request-id.js';
import { afterOwedAnswers } from './answers-on-socket.js';
import type { RuntimeAnswer } from '../gateway/env.js';
import type { ArrivingRequest } from './listener.js';
import type { ConnectTerminator } from './connect-termination.js';
import { closeLingering } from './lingering-close.js';

export type ClientError = Error & { code?: string; rawPacket?: Buffer };

const JSON_IN_HEADERS = /\r\n(?:accept|content-type)[ \t]*:[^\r\n]*application\/json/i;
/** `METHOD SP target SP HTTP/1.x`, the first line of a request Node refused before parsing it all. */
const REQUEST_LINE = /^([A-Z][A-Z_-]{0,31}) (\S+) HTTP\/1\.[01]\r?$/;

/**
 * What Node refuses before the gateway sees a request, answered in the legacy error shape and
 * recorded (operation `unrouted`). What the record knows: the method and target when the first
 * bytes hold a well-formed request line (the target only hashes the client: it is not kept), else
 * method `UNKNOWN`; never a header (no request id from the client, no user).
 */
export function answerClientError(error: ClientError, socket: Duplex, config: GatewayConfig, observer: RefusalObserver | undefined): void {
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
    ? wantsJson(singleValue(parsed.accept), singleValue(parsed['content-type']))
    : error.rawPacket !== undefined && JSON_IN_HEADERS.test(error.rawPacket.toString('latin1'));
  if (error.code === 'HPE_INVALID_EOF_STATE') {
    // The client closed its side mid-request: it went away, nothing was refused. The answer still
    // goes to a client that only half-closed, but is not recorded here; a request the core held is
    // recorded by the core, as `client-gone`.
    writeAnswer(socket, refusal, json, '');
    return;
  }
  if (pending && !pending.req?.complete) {
    // The request the core holds is the broken one (its body came too slowly or broke HTTP).
    const bytesOut = writeAnswer(socket, refusal, json, '');
    const answered: RuntimeAnswer = { status: refusal.status, code: refusal.code, bytesOut };
    const request = pending.req as Partial<ArrivingRequest> | undefined;
    if (request) request.answeredByNode = answered;
    return;
  }
  // With requests still being answered on this connection, the refused one came after them
  // (pipelined): they are answered first, in order, then this refusal, then the connection
  // closes. Its bytes shared a packet with theirs, so its request line is not known (`UNKNOWN`);
  // DECISION: it is answered in the format the client asked for on the request before it.
  const line = pending ? null : requestLineOf(error.rawPacket);
  afterOwedAnswers(socket, () => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    answerRecorded(socket, refusal, json, '', observer, { method: line?.[1] ?? 'UNKNOWN', rawTarget: line?.[2] ?? '' });
  });
}

/**
 * Tunnels are not offered: CONNECT gets 405 in the legacy error shape, recorded like any refusal,
 * unless `terminate` takes it (a legacy host, terminated by the gateway's own TLS listener).
 */
export function answerConnect(req: IncomingMessage, socket: Duplex, head: Buffer, observer: RefusalObserver | undefined, terminate?: ConnectTerminator): void {
  // Node has handed the socket over, without its own error handler.
  socket.on('error', () => socket.destroy());
  if (socket.writable && terminate?.(req, socket, head)) return;
  if (!socket.writable) {
    socket.destroy(); // no answer, no record
    return;
  }
  const refusal = { status: 405, code: 'method-not-allowed', message: 'The CONNECT method is not allowed: this gateway does not open tunnels.' };
  answerRecorded(socket, refusal, wantsJson(singleValue(req.headers.accept), singleValue(req.headers['content-type'])), 'Allow: GET, HEAD, POST, PUT, DELETE\r\n', observer, {
    method: req.method ?? 'CONNECT',
    rawTarget: req.url ?? '',
    requestIdHeader: singleValue(req.headers[REQUEST_ID_HEADER]),
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
  const arrival = refusalArrival({
    ...sent,
    tls: (socket as { encrypted?: boolean }).encrypted === true,
    absoluteForm: /^https?:\/\//i.test(sent.rawTarget),
    startedAt: Date.now(),
    startedPerf,
  });
  const idHead = observer.identifier ? `X-Request-Id: ${arrival.requestId}\r\n` : '';
  const bytesOut = writeAnswer(socket, refusal, json, extraHead + idHead);
  recordRefusal(observer, arrival, refusal.status, refusal.code, bytesOut);
}

/** Writes a legacy-shaped error and closes the connection; returns the body's byte length. */
function writeAnswer(socket: Duplex, refusal: NodeRefusal, json: boolean, extraHead: string): number {
  const rendered = renderError(refusal.status, refusal.message, json);
  const body = Buffer.from(rendered.body, 'utf8');
  const head =
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n` +
    `Content-Type: ${rendered.contentType}\r\nContent-Length: ${body.byteLength}\r\n` +
    `X-Gateway-Error: ${refusal.code}\r\n${extraHead}Cache-Control: no-store\r\nConnection: close\r\n\r\n`;
  socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  // The client may still be sending (a body after headers too large): close without an RST that
  // would discard this answer.
  closeLingering(socket);
  return body.byteLength;
}

/** The request line at the start of the bytes Node refused, when there is a well-formed one. */
function requestLineOf(raw: Buffer | undefined): RegExpExecArray | null {
  if (raw === undefined) return null;
  const end = raw.indexOf(0x0a);
  return end === -1 ? null : REQUEST_LINE.exec(raw.toString('latin1', 0, end));
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

/**
 * Small measurements for the request record, runtime-agnostic.
 */
import { answerParts } from '../http/answer.js';

/** Milliseconds rounded to 0.01 ms. */
export function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}

const NO_BODY = new Set([101, 103, 204, 205, 304]);

const encoder = new TextEncoder();

/** Bytes of a string once UTF-8 encoded (ASCII fast path: the rendered legacy bodies mostly are). */
export function utf8Length(text: string): number {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).byteLength;
}

/**
 * Bytes of the answer's body: its `Content-Length`, 0 when it has none to send (HEAD, 204, 304),
 * and for the gateway's own (small) error answers the rendered bytes. Undefined otherwise (an
 * answer without a length that the gateway did not build itself), and whenever the runtime counts
 * the written bytes itself (`countedLater`).
 */
export function responseBytes(response: Response, method: string, countedLater = false): number | undefined | Promise<number> {
  if (method === 'HEAD' || NO_BODY.has(response.status)) return 0;
  const known = answerParts(response);
  if (known !== undefined) return known.bytes;
  // The runtime counts what it writes: reading the headers here would cost a Headers object.
  if (countedLater) return undefined;
  const length = response.headers.get('content-length');
  if (length !== null) return Number(length) || 0;
  // Not `response.body`: on @hono/node-server reading it leaves the adapter's fast path.
  if (response.headers.has('x-gateway-error')) return response.clone().arrayBuffer().then((bytes) => bytes.byteLength);
  return undefined;
}

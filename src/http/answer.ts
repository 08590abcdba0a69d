/**
 * An answer as the pipeline builds it: plain data, status, headers and a body of known size.
 * Every stage returns one (errors, pass-through and mapped answers, cached pages); the request
 * context adds `X-Request-Id` and makes the one Response sent (`toResponse`). So the usage log
 * knows the body's size without reading a Response, a header is added without building a second
 * Response, and the page cache and the shadow comparison read the body without a stream.
 */
import { copyWith } from '../hot-path.js';

export interface Answer {
  readonly status: number;
  /** Single-valued headers, lower-case names. */
  readonly headers: Record<string, string>;
  /** Headers sent more than once (Set-Cookie), in order; absent for almost every answer. */
  readonly repeated?: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array<ArrayBuffer> | string | null;
  /** Bytes of the body once encoded (0 without one). */
  readonly bytes: number;
  /** `headers` is shared with other answers (a cached page's): never mutate it, copy it. */
  readonly sharedHeaders: boolean;
}

const encoder = new TextEncoder();

/** Statuses whose answers never carry a body (RFC 9110: 1xx, 204, 205 and 304). */
const BODILESS_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** Whether the answer to a request with `method` and `status` carries a body (never for HEAD). */
export function carriesBody(method: string, status: number): boolean {
  return method !== 'HEAD' && !BODILESS_STATUSES.has(status);
}

/** Bytes of a string once UTF-8 encoded (ASCII fast path: the rendered legacy bodies mostly are). */
export function utf8Length(text: string): number {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).byteLength;
}

export function answer(
  status: number,
  headers: Record<string, string>,
  body: Uint8Array<ArrayBuffer> | string | null = null,
  options: { readonly sharedHeaders?: boolean; readonly repeated?: ReadonlyArray<readonly [string, string]> } = {},
): Answer {
  const bytes = body === null ? 0 : typeof body === 'string' ? utf8Length(body) : body.byteLength;
  const repeated = options.repeated && options.repeated.length > 0 ? options.repeated : undefined;
  return { status, headers, body, bytes, sharedHeaders: options.sharedHeaders === true, ...(repeated ? { repeated } : {}) };
}

/** The same answer with one more header (set in place unless the headers are shared). */
export function withHeader(answered: Answer, name: string, value: string): Answer {
  if (!answered.sharedHeaders) {
    answered.headers[name] = value;
    return answered;
  }
  return copyWith(answered, { headers: copyWith(answered.headers, { [name]: value }), sharedHeaders: false });
}

/** The body as bytes (the page cache and the shadow comparison keep and compare bytes). */
export function bodyBytes(answered: Answer): Uint8Array {
  if (answered.body === null) return new Uint8Array(0);
  return typeof answered.body === 'string' ? encoder.encode(answered.body) : answered.body;
}

/**
 * The Response to send. A plain header object keeps @hono/node-server on its fast path (it
 * writes the head from the object); only an answer with repeated headers needs a Headers.
 */
export function toResponse(answered: Answer): Response {
  if (!answered.repeated) return new Response(answered.body, { status: answered.status, headers: answered.headers });
  const headers = new Headers(answered.headers);
  for (const [name, value] of answered.repeated) headers.append(name, value);
  return new Response(answered.body, { status: answered.status, headers });
}

/**
 * Reads a request body once, into bytes, within the configured limit (proxy-lessons: a body can
 * be read once; buffer it and forward the buffer). GET and HEAD bodies are never read.
 *
 * A declared Content-Length over the limit is refused before a byte is read. A chunked body (no
 * declared length) is read no further than the limit: past it the read stops and the request is
 * refused, so a client cannot make the gateway buffer more than the limit.
 */
import type { Context } from 'hono';
import { readWithin } from '../http/bounded-read.js';

export type BodyRead = { ok: true; body: Uint8Array | null } | { ok: false; limit: number };

const NO_BODY: BodyRead = { ok: true, body: null };

/** Known at once when there is nothing to read (GET, HEAD, no body, a declared length over the limit). */
export function readRequestBody(c: Context, arrived: { readonly method: string; readonly headers: Readonly<Record<string, string>> }, limit: number): BodyRead | Promise<BodyRead> {
  const { method, headers } = arrived;
  if (method === 'GET' || method === 'HEAD') return NO_BODY;
  const declared = headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return { ok: false, limit };
  if (declared === '0') return NO_BODY;
  if (declared === undefined && headers['transfer-encoding'] === undefined) return NO_BODY;
  if (declared === undefined) return readBounded(c.req.raw.body, limit);
  return readDeclared(c, limit);
}

async function readDeclared(c: Context, limit: number): Promise<BodyRead> {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength > limit) return { ok: false, limit };
  return { ok: true, body: bytes.byteLength > 0 ? bytes : null };
}

async function readBounded(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<BodyRead> {
  const body = await readWithin(stream, limit);
  if (body === null) return { ok: false, limit };
  return { ok: true, body: body.byteLength > 0 ? body : null };
}

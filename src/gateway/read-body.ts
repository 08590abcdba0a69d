/**
 * Reads a request body once, into bytes, within the configured limit (proxy-lessons: a body can
 * be read once; buffer it and forward the buffer). GET and HEAD bodies are never read.
 */
import type { Context } from 'hono';

export type BodyRead = { ok: true; body: Uint8Array | null } | { ok: false; limit: number };

export async function readRequestBody(c: Context, headers: Record<string, string>, limit: number): Promise<BodyRead> {
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD') return { ok: true, body: null };
  const declared = headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return { ok: false, limit };
  if (declared === '0') return { ok: true, body: null };
  if (declared === undefined && headers['transfer-encoding'] === undefined) return { ok: true, body: null };
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength > limit) return { ok: false, limit };
  return { ok: true, body: bytes.byteLength > 0 ? bytes : null };
}

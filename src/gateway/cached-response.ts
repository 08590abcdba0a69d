/**
 * Between a Response and the bytes the page cache keeps: a stored answer is the status, the
 * headers as the upstream sent them (less the per-exchange ones), Set-Cookie apart, and the body
 * bytes; a served one gets `X-Cache` and honours `If-None-Match` against the stored ETag.
 */
import type { CacheOutcome, StoredAnswer } from '../cache/page-cache.js';

/** Per-exchange headers: recomputed or meaningless for another exchange. */
const NOT_KEPT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'set-cookie', 'x-cache']);

export async function toStored(response: Response): Promise<StoredAnswer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!NOT_KEPT.has(name)) headers[name] = value;
  });
  const body = response.body ? new Uint8Array(await response.arrayBuffer()) : new Uint8Array(0);
  return { status: response.status, headers, setCookie: response.headers.getSetCookie(), body };
}

function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

export function fromStored(stored: StoredAnswer, outcome: CacheOutcome, ifNoneMatch: string | undefined): Response {
  const etag = stored.headers['etag'];
  if (stored.status === 200 && etag && ifNoneMatch && etagMatches(ifNoneMatch, etag)) {
    const headers: Record<string, string> = { etag, 'x-cache': outcome };
    if (stored.headers['vary']) headers['vary'] = stored.headers['vary'];
    if (stored.headers['cache-control']) headers['cache-control'] = stored.headers['cache-control'];
    return new Response(null, { status: 304, headers });
  }
  const noBody = stored.status === 204 || stored.status === 304 || stored.body.byteLength === 0;
  const body = noBody ? null : (stored.body as Uint8Array<ArrayBuffer>);
  if (stored.setCookie.length === 0) {
    return new Response(body, { status: stored.status, headers: { ...stored.headers, 'x-cache': outcome } });
  }
  const headers = new Headers(stored.headers);
  for (const cookie of stored.setCookie) headers.append('set-cookie', cookie);
  headers.set('x-cache', outcome);
  return new Response(body, { status: stored.status, headers });
}

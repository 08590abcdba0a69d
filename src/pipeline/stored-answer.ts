/**
 * Between a Response and the bytes the page cache keeps: a stored answer is the status, the
 * headers as the upstream sent them (less the per-exchange ones), Set-Cookie apart, and the body
 * bytes; a served one gets `X-Cache` and honours `If-None-Match` (or `If-Modified-Since`) against
 * the stored validators.
 */
import type { CacheOutcome, StoredAnswer } from '../cache/page-cache.js';
import { buildAnswer } from '../http/answer.js';

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

/** Served header sets, built once per stored answer and outcome (the hot path of a HIT). */
const servedHeaders = new WeakMap<StoredAnswer, Partial<Record<CacheOutcome, Record<string, string>>>>();

function headersFor(stored: StoredAnswer, outcome: CacheOutcome): Record<string, string> {
  let byOutcome = servedHeaders.get(stored);
  if (!byOutcome) servedHeaders.set(stored, (byOutcome = {}));
  let headers = byOutcome[outcome];
  if (!headers) {
    headers = { ...stored.headers, 'x-cache': outcome };
    if (stored.body.byteLength > 0) headers['content-length'] = String(stored.body.byteLength);
    byOutcome[outcome] = headers;
  }
  return headers;
}

/** RFC 9110 13.2.2: If-None-Match decides when present; else If-Modified-Since against Last-Modified. */
function notModified(stored: StoredAnswer, conditions: Conditions): boolean {
  if (stored.status !== 200) return false;
  const etag = stored.headers['etag'];
  if (conditions.ifNoneMatch !== undefined) return etag !== undefined && etagMatches(conditions.ifNoneMatch, etag);
  const lastModified = stored.headers['last-modified'];
  if (conditions.ifModifiedSince === undefined || lastModified === undefined) return false;
  const since = Date.parse(conditions.ifModifiedSince);
  const modified = Date.parse(lastModified);
  return Number.isFinite(since) && Number.isFinite(modified) && modified <= since;
}

/** The client's own conditional headers, judged against a stored page (never sent on a shared fill). */
export interface Conditions {
  readonly ifNoneMatch: string | undefined;
  readonly ifModifiedSince: string | undefined;
}

export function fromStored(stored: StoredAnswer, outcome: CacheOutcome, conditions: Conditions): Response {
  if (notModified(stored, conditions)) {
    const headers: Record<string, string> = { 'x-cache': outcome };
    for (const name of ['etag', 'last-modified', 'vary', 'cache-control']) if (stored.headers[name]) headers[name] = stored.headers[name] as string;
    return buildAnswer(304, headers, null, 0);
  }
  const noBody = stored.status === 204 || stored.status === 304 || stored.body.byteLength === 0;
  const body = noBody ? null : (stored.body as Uint8Array<ArrayBuffer>);
  if (stored.setCookie.length === 0) {
    if (!body) return buildAnswer(stored.status, { ...stored.headers, 'x-cache': outcome }, null, 0);
    // Shared by every answer of this page and outcome (marked so: a header is added to a copy).
    return buildAnswer(stored.status, headersFor(stored, outcome), body, body.byteLength, true);
  }
  const headers = new Headers(stored.headers);
  for (const cookie of stored.setCookie) headers.append('set-cookie', cookie);
  headers.set('x-cache', outcome);
  return new Response(body, { status: stored.status, headers });
}

/**
 * Between an answer and the bytes the page cache keeps: a stored answer is the status, the
 * headers as the upstream sent them (less the per-exchange ones), Set-Cookie apart, and the body
 * bytes; a served one gets `X-Cache` and honours `If-None-Match` (or `If-Modified-Since`) against
 * the stored validators.
 */
import type { CacheOutcome, StoredAnswer } from '../cache/types.js';
import { answer, bodyBytes } from '../http/answer.js';
import type { Answer } from '../http/answer.js';
import { copyWith, rememberedPer } from '../hot-path.js';
import { etagMatches } from '../legacy/answer-policy.js';

/** Per-exchange headers: recomputed or meaningless for another exchange. */
const NOT_KEPT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'set-cookie', 'x-cache']);

export function toStored(answered: Answer): StoredAnswer {
  const headers: Record<string, string> = {};
  for (const name in answered.headers) if (!NOT_KEPT.has(name)) headers[name] = answered.headers[name]!;
  // One Set-Cookie is among the headers, more among the repeated ones: both are kept apart (never stored).
  const single = answered.headers['set-cookie'];
  const setCookie: string[] = single === undefined ? [] : [single];
  for (const [name, value] of answered.repeated ?? []) {
    if (name === 'set-cookie') setCookie.push(value);
    // Other repeated fields are kept as one list (RFC 9110 5.3), as a Headers object joins them.
    else if (!NOT_KEPT.has(name)) headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { status: answered.status, headers, setCookie, body: bodyBytes(answered) };
}

/** Served header sets, built once per stored answer and outcome (the hot path of a HIT). */
const headersFor = rememberedPer(4, (stored: StoredAnswer, outcome: CacheOutcome): Record<string, string> => {
  const headers: Record<string, string> = copyWith(stored.headers, { 'x-cache': outcome });
  if (stored.body.byteLength > 0) headers['content-length'] = String(stored.body.byteLength);
  return headers;
});

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

export function fromStored(stored: StoredAnswer, outcome: CacheOutcome, conditions: Conditions): Answer {
  if (notModified(stored, conditions)) {
    const headers: Record<string, string> = { 'x-cache': outcome };
    for (const name of ['etag', 'last-modified', 'vary', 'cache-control']) if (stored.headers[name]) headers[name] = stored.headers[name] as string;
    return answer(304, headers);
  }
  const noBody = stored.status === 204 || stored.status === 304 || stored.body.byteLength === 0;
  const body = noBody ? null : (stored.body as Uint8Array<ArrayBuffer>);
  if (stored.setCookie.length === 0) {
    if (!body) return answer(stored.status, copyWith(stored.headers, { 'x-cache': outcome }));
    // Shared by every answer of this page and outcome (marked so: a header is added to a copy).
    return answer(stored.status, headersFor(stored, outcome), body, { sharedHeaders: true });
  }
  const repeated = stored.setCookie.map((cookie) => ['set-cookie', cookie] as const);
  return answer(stored.status, copyWith(stored.headers, { 'x-cache': outcome }), body, { repeated });
}

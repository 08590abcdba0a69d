/**
 * The legacy backend's HTTP answer policy, in one place: the sandbox legacy backend answers by it
 * (src/sandbox/legacy-app.ts), and so does the gateway when it answers in the legacy shape itself
 * (api2 mode, src/api2/legacy-answer.ts), so the two cannot drift. Runtime-agnostic.
 *
 * DECISIONS (the legacy document is silent):
 * - Cache-Control: `no-store` on errors and on every user-scoped answer (grocery, favorites, try
 *   soons, review writes, and search or detail asked with a user, since IsBookmark is per user);
 *   anonymous search and detail `public, max-age=60`; review reads `no-cache` (revalidate by
 *   ETag). Per operation, its catalogue entry's `answer.cacheControl` says which.
 * - ETag: weak, FNV-1a of the uncompressed body, on every 200 answer to GET/HEAD; If-None-Match
 *   (list, weak comparison, `*`) gives 304 with ETag, Cache-Control and Vary, no body.
 * - Bodies of at least 1024 bytes are gzip-compressed when the client accepts gzip (by name or
 *   `*`, weight above 0: src/request/encoding.ts); they carry `Vary: Accept, Accept-Encoding`,
 *   smaller ones `Vary: Accept` (JSON or XML is chosen by Accept). Content-Length is the length
 *   of the bytes sent (on HEAD, of those a GET would send).
 */
import type { ContentCoding, LegacyCacheControl } from './answer-terms.js';
import { fnv1a32 } from '../hot-path.js';
import { webCompression } from '../http/compression.js';
import type { Compression } from '../http/compression.js';

export const NO_STORE = 'no-store';
const PUBLIC_CACHE = 'public, max-age=60';
const COMPRESS_FROM_BYTES = 1024;

/** The header each of the catalogue's legacy Cache-Control kinds gives; `withUser`: the request carried a user (HTTP Basic). */
export function cacheControlOf(kind: LegacyCacheControl | undefined, withUser: boolean): string {
  if (kind === 'revalidate') return 'no-cache';
  if (kind === 'public' && !withUser) return PUBLIC_CACHE;
  return NO_STORE;
}

/** An answer before the HTTP details: status, rendered body (null: none, as for 204), its type and Cache-Control. */
export interface LegacyBody {
  readonly status: number;
  readonly body: Uint8Array<ArrayBuffer> | null;
  readonly contentType: string | undefined;
  readonly cacheControl: string;
}

/** What of the request the details depend on. */
export interface Delivery {
  readonly method: string;
  readonly ifNoneMatch: string | undefined;
  readonly coding: ContentCoding;
  /** The runtime's gzip (Node: zlib), else the web's CompressionStream: the same bytes. */
  readonly compression?: Compression | undefined;
}

/** Status, headers (lower-case names) and the bytes to send. */
export interface Delivered {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array<ArrayBuffer> | null;
}

/** The legacy backend's HTTP details applied to an answer: Vary, ETag or 304, gzip. */
export async function deliver(answer: LegacyBody, delivery: Delivery): Promise<Delivered> {
  const headers: Record<string, string> = { 'cache-control': answer.cacheControl };
  if (answer.body === null) return { status: answer.status, headers, body: null };
  const large = answer.body.byteLength >= COMPRESS_FROM_BYTES;
  headers['vary'] = large ? 'Accept, Accept-Encoding' : 'Accept';
  if ((delivery.method === 'GET' || delivery.method === 'HEAD') && answer.status === 200) {
    const etag = weakEtag(answer.body);
    headers['etag'] = etag;
    if (delivery.ifNoneMatch !== undefined && etagMatches(delivery.ifNoneMatch, etag)) return { status: 304, headers, body: null };
  }
  headers['content-type'] = answer.contentType ?? 'text/plain; charset=utf-8';
  let body = answer.body;
  if (large && delivery.coding === 'gzip') {
    headers['content-encoding'] = 'gzip';
    body = await (delivery.compression ?? webCompression).gzip(body);
  }
  // Also on HEAD, which sends no body: the length the GET's body has.
  headers['content-length'] = String(body.byteLength);
  return { status: answer.status, headers, body };
}

/** FNV-1a (32 bit) of the bytes, with their length: `W/"<len hex>-<hash hex>"`. */
export function weakEtag(bytes: Uint8Array): string {
  return `W/"${bytes.byteLength.toString(16)}-${fnv1a32(bytes).toString(16).padStart(8, '0')}"`;
}

/** If-None-Match (a list, or `*`) against an ETag, by weak comparison (RFC 9110 13.1.2). */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}


/**
 * The canonical request: the checked parameters (canonicalise.ts) with the request's facts that
 * answers depend on, each brought to a small closed set. Built once per catalogued request by the
 * canonicalise stage; immutable after. Everything the gateway sends or keys is rendered from it.
 */
import type { ForwardedFor } from '../http/headers.js';
import type { RequestTrail } from '../observability/trace-context.js';
import type { CanonicalParams } from './canonicalise.js';
import type { ContentCoding } from './encoding.js';

export interface CanonicalRequest extends CanonicalParams {
  /** As received (HEAD stays HEAD; it is routed as GET). */
  readonly method: string;
  /** Representation: JSON, or XML (the legacy default). */
  readonly json: boolean;
  readonly encoding: ContentCoding;
  /** Who the client is, as forwarded (X-Forwarded-For/-Proto/-Host). */
  readonly forwarded: ForwardedFor;
  /** What identifies the request on every upstream call (X-Request-Id, traceparent, User-Agent); never part of a cache key. */
  readonly trail: RequestTrail;
}

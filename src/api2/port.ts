/**
 * The api2 port handed to mappings: turns an `Api2Request` into one upstream exchange with the
 * api2 conventions (api2-notes, authentication [C]): the api key in `X-BigOven-API-Key` (never
 * in the query), the user's HTTP Basic header passed through, JSON only. One deadline covers all
 * the calls of a mapping. Nothing is retried.
 *
 * Every call carries the request's trail (src/request/trace-context.ts): its X-Request-Id,
 * a `traceparent` with a span id of its own per call (a mapping of several calls, grocery.update,
 * gives each its own), and `tracestate` when the client sent one.
 *
 * DECISION: api2 is told who calls it, `User-Agent: recipe-gateway/<version>`, followed by the
 * client's User-Agent when it has one that can be a header value (`api2UserAgent`).
 */
import { Api2ShapeError } from '../../mappings/errors.js';
import type { Api2Port, Api2Request } from '../../mappings/types.js';
import { UpstreamError } from '../upstream/types.js';
import type { AbortSignalLike, UpstreamClient } from '../upstream/types.js';
import { GATEWAY_PRODUCT } from '../gateway/product.js';
import { copyWith } from '../hot-path.js';
import { markCall } from '../request/trace-context.js';
import { endCall, openedCall } from '../observability/tracing/span-log.js';
import type { RequestTrail } from '../request/trace-context.js';

/** The header api2 takes the api key in (api2-notes, authentication [C]); never the query. */
export const API2_KEY_HEADER = 'x-bigoven-api-key';

export interface Api2Credentials {
  readonly apiKey: string;
  readonly authorization: string | undefined;
}

export interface Api2Exchange {
  readonly port: Api2Port;
  /** Time spent waiting on api2, summed over the calls made so far. */
  upstreamMs(): number;
  calls(): number;
}

export function queryString(query: Api2Request['query']): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** Printable Latin-1 (and tab): what a header value may carry. */
export const HEADER_SAFE = /^[\t\x20-\x7e\xa0-\xff]+$/;

/** The `User-Agent` of api2 calls: the gateway's own product, then the client's as sent (when it can be a header value). */
export function api2UserAgent(clientUserAgent: string | undefined): string {
  const client = clientUserAgent?.trim();
  return client && HEADER_SAFE.test(client) ? `${GATEWAY_PRODUCT} ${client}` : GATEWAY_PRODUCT;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function openApi2Exchange(
  upstream: UpstreamClient,
  credentials: Api2Credentials,
  timeoutMs: number,
  signal: AbortSignalLike | undefined,
  extraHeaders: Readonly<Record<string, string>> = {},
  trail?: RequestTrail,
): Api2Exchange {
  const deadline = Date.now() + timeoutMs;
  let waited = 0;
  let count = 0;
  const port: Api2Port = async (request) => {
    const headers: Record<string, string> = copyWith(extraHeaders, { accept: 'application/json', [API2_KEY_HEADER]: credentials.apiKey });
    if (credentials.authorization) headers['authorization'] = credentials.authorization;
    if (trail) markCall(headers, trail);
    // With traces exported, this call's entry in the span log (markCall's), whose end is noted below.
    const traced = trail ? openedCall(trail.trace.spans) : undefined;
    let body: Uint8Array | null = null;
    if (request.body) {
      headers['content-type'] = 'application/json; charset=utf-8';
      body = encoder.encode(JSON.stringify(request.body));
    }
    const started = Date.now();
    count += 1;
    try {
      const answer = await upstream.request({
        method: request.method,
        target: request.path + queryString(request.query),
        headers,
        body,
        timeoutMs: Math.max(1, deadline - started),
        ...(signal ? { signal } : {}),
      });
      if (traced) endCall(traced, upstream.name, request.method, request.path, answer.status, undefined);
      if (answer.body.byteLength === 0) return { status: answer.status, body: undefined };
      const text = decoder.decode(answer.body);
      try {
        return { status: answer.status, body: JSON.parse(text) as unknown };
      } catch {
        // Only blank answers are no body; the test is left for this rare path (it copies the text).
        if (text.trim() === '') return { status: answer.status, body: undefined };
        throw new Api2ShapeError(`${request.method} ${request.path}`, '', 'the answer is not JSON');
      }
    } catch (error) {
      // The exchange failed (the breaker's refusal included: `unavailable`); a bad body was noted as answered above.
      if (traced && traced.endedAt === undefined) endCall(traced, upstream.name, request.method, request.path, undefined, error instanceof UpstreamError ? error.failure : 'error');
      throw error;
    } finally {
      waited += Date.now() - started;
    }
  };
  return { port, upstreamMs: () => waited, calls: () => count };
}

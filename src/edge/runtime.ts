/**
 * Runtime bindings for edge platforms (Cloudflare Workers / workerd, and any fetch-handler
 * runtime): there is no socket to read, so
 *
 * - the peer address is the platform's `CF-Connecting-IP` header (set by the Workers edge, which
 *   overwrites what a client sends), or `unknown` when absent — it is only used for
 *   `X-Forwarded-For` and trusted-proxy matching, never for authorisation;
 * - TLS is the scheme of the request URL (the platform terminates TLS and says so there);
 * - the client's disconnect is `request.signal` (undefined where the runtime has none);
 * - absolute-form targets never reach a Worker (the platform answers them), so `false`;
 * - work an answer does not wait for (refreshes, shadow comparisons) is given to the execution
 *   context's `waitUntil`, so the platform does not cut it once the answer is sent;
 * - the platform compresses answers as the client negotiates (workerd compresses a body again
 *   when its Response says `Content-Encoding`), so the gateway's own answers go uncompressed;
 * - HMAC-SHA256 is @noble/hashes' (src/edge/hmac.ts).
 */
import type { Context } from 'hono';
import type { RuntimeBindings } from '../gateway/env.js';
import { normaliseTarget, originFormOf } from '../http/target.js';
import { edgeHmacSha256 } from './hmac.js';

export const UNKNOWN_PEER = 'unknown';

export const edgeRuntime: RuntimeBindings = {
  platformCompresses: true,
  arrival(c: Context, maxUrlLength: number) {
    const address = c.req.header('cf-connecting-ip')?.trim() || UNKNOWN_PEER;
    return {
      method: c.req.method,
      target: normaliseTarget(originFormOf(c.req.url), maxUrlLength),
      headers: c.req.header(),
      peer: { address, tls: c.req.url.startsWith('https:') },
      absoluteForm: false,
    };
  },
  clientSignal(c: Context) {
    return (c.req.raw as { signal?: AbortSignal }).signal ?? undefined;
  },
  defer(c: Context, work: Promise<unknown>) {
    let context: { waitUntil(promise: Promise<unknown>): void } | undefined;
    try {
      context = c.executionCtx;
    } catch {
      context = undefined; // no execution context (a test calling app.fetch directly): fire and forget
    }
    context?.waitUntil(work);
  },
  hmacSha256: edgeHmacSha256,
};

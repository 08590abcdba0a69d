/**
 * What a runtime must provide to the core. (The core keeps nothing in Hono's per-request
 * variables: a request's arrival, src/gateway/arrival.ts, is handed from stage to stage.)
 */
import type { Context } from 'hono';
import type { AbortSignalLike } from '../upstream/types.js';
import type { Peer } from '../http/client-view.js';

/** The runtime-specific pieces (Node: from the socket; edge runtimes: from the platform). */
export interface RuntimeBindings {
  peer(c: Context): Peer;
  /** A signal that aborts when the client goes away, or undefined when the runtime cannot tell. */
  clientSignal(c: Context): AbortSignalLike | undefined;
  /** Whether the client sent an absolute-form target (it uses the gateway as its HTTP proxy). */
  absoluteForm(c: Context): boolean;
  /**
   * The request headers, lower-case names, as a plain object. Optional: without it the core reads
   * them through the Fetch API (on @hono/node-server that builds a Headers object per request).
   */
  requestHeaders?(c: Context): Record<string, string>;
  /** The request target already normalised by the runtime (src/http/target.ts), when it did. */
  normalisedTarget?(c: Context): { path: string; query: string } | undefined;
  /**
   * Work started for a request that its answer does not wait for (a stale page's refresh, a
   * shadow comparison): Node lets it run on (fire and forget); an edge runtime keeps the request's
   * context alive until it settles (`waitUntil`), else the work may be cut once the answer is
   * sent. The promise never rejects. Optional: without it, fire and forget.
   */
  defer?(c: Context, work: Promise<unknown>): void;
}

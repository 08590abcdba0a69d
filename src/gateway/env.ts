/**
 * What a runtime must provide to the core. (The core keeps nothing in Hono's per-request
 * variables: a request's arrival, src/gateway/arrival.ts, is handed from stage to stage.)
 */
import type { Context } from 'hono';
import type { AbortSignalLike } from '../upstream/types.js';
import type { Peer } from '../http/client-view.js';
import type { TargetResult } from '../http/target.js';
import type { HmacSha256 } from '../request/hmac.js';
import type { Compression } from '../http/compression.js';

/**
 * A request as the runtime hands it to the core, finished: the core builds its arrival from this
 * alone (src/gateway/arrival.ts, `arrive`) and never reads the runtime's request object.
 */
export interface RuntimeArrival {
  readonly method: string;
  /** The target as the client sent it, checked and normalised by src/http/target.ts (or refused). */
  readonly target: TargetResult;
  /** The request headers, lower-case names, as a plain object (the core keeps the end-to-end ones). */
  readonly headers: Readonly<Record<string, string>>;
  readonly peer: Peer;
  /** The client sent an absolute-form target (it uses the gateway as its HTTP proxy). */
  readonly absoluteForm: boolean;
}

/** An answer the runtime wrote itself in place of the core's (Node: a 408, 400 or 413 while the body was arriving). */
export interface RuntimeAnswer {
  readonly status: number;
  /** Its `X-Gateway-Error` code. */
  readonly code: string;
  /** Body bytes written. */
  readonly bytesOut: number;
}

/** The runtime-specific pieces (Node: from the socket; edge runtimes: from the platform). */
export interface RuntimeBindings {
  /** The request, finished (targets longer than `maxUrlLength` refused with 414). */
  arrival(c: Context, maxUrlLength: number): RuntimeArrival;
  /**
   * What the runtime answered itself when the request's body could not be read, if it did. Optional:
   * a runtime that never answers in the core's place has none.
   */
  answeredItself?(c: Context): RuntimeAnswer | undefined;
  /** A signal that aborts when the client goes away, or undefined when the runtime cannot tell. */
  clientSignal(c: Context): AbortSignalLike | undefined;
  /**
   * Work started for a request that its answer does not wait for (a stale page's refresh, a
   * shadow comparison): Node lets it run on (fire and forget); an edge runtime keeps the request's
   * context alive until it settles (`waitUntil`), else the work may be cut once the answer is
   * sent. The promise never rejects. Optional: without it, fire and forget.
   */
  defer?(c: Context, work: Promise<unknown>): void;
  /**
   * The platform compresses answers for the client itself (Workers: by the client's
   * Accept-Encoding), so the gateway never compresses an answer it makes (api2 mode), as the edge's
   * pass-through hands on decoded bodies (src/upstream/fetch-client.ts). Optional: false.
   */
  readonly platformCompresses?: boolean;
  /** gzip of whole bodies, when the runtime has one faster than the web's streams (Node: zlib, src/node/compression.ts). Optional. */
  readonly compression?: Compression;
  /**
   * HMAC-SHA256 for the usage log's client hashes and the cache keys' secrets, synchronous (a HIT
   * and the record never wait for it); never hand-written in the core (docs/deploy.md, "HMAC").
   */
  readonly hmacSha256: HmacSha256;
}

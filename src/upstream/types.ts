/**
 * The upstream client contract. The core never imports an HTTP library: it is handed an
 * `UpstreamClient` (undici on Node, fetch on edge runtimes) and speaks only these types.
 */

/**
 * What an upstream client needs of a "client went away" signal: an AbortSignal satisfies it, and a
 * runtime may hand a cheaper object (creating an AbortController per request is not free on Node).
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface UpstreamRequest {
  readonly method: string;
  /** Origin-form path and query, already normalised; appended to the upstream's base path. */
  readonly target: string;
  /** Lower-case header names; hop-by-hop headers already removed. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array | null;
  /** Whole-exchange deadline: connect, headers and body. */
  readonly timeoutMs: number;
  /** Aborted when the client went away. */
  readonly signal?: AbortSignalLike;
}

export interface UpstreamResponse {
  readonly status: number;
  /** Lower-case names; repeated headers as arrays. */
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: Uint8Array;
}

/**
 * Why an exchange failed. `sent` tells whether the request may have reached the upstream:
 * a write that failed after it was sent has an unknown outcome and is never retried.
 */
export type UpstreamFailure =
  | 'timeout' // the deadline passed
  | 'connect' // no connection could be made
  | 'reset' // the connection broke during the exchange
  | 'too-large' // the answer exceeded the configured maximum
  | 'protocol' // the upstream spoke invalid HTTP
  | 'aborted' // the client went away
  | 'unavailable'; // not attempted: the upstream's circuit breaker is open

export class UpstreamError extends Error {
  constructor(
    readonly failure: UpstreamFailure,
    readonly upstream: string,
    readonly sent: boolean,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/** What a pooled client can say about its connections and requests at this moment. */
export interface UpstreamPoolStats {
  /** Connections open to the upstream. */
  readonly connected: number;
  /** Of those, connections with no request on them. */
  readonly idle: number;
  /** Requests written to a connection, not yet answered. */
  readonly inFlight: number;
  /** Requests waiting for a connection. */
  readonly waiting: number;
}

export interface UpstreamClient {
  readonly name: string;
  request(request: UpstreamRequest): Promise<UpstreamResponse>;
  close(): Promise<void>;
  /** The pool's state, when the client has a pool it can read (undici on Node). */
  stats?(): UpstreamPoolStats;
}

/** The gateway's upstream clients: the legacy backend's, and api2's when a route can call it. */
export interface Upstreams {
  readonly legacy: UpstreamClient;
  /** Required when any route calls api2 (the config refuses otherwise). */
  readonly api2?: UpstreamClient;
}

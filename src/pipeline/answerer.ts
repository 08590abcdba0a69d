/**
 * An answerer: what answers a canonical request, given the facts of its exchange. The side that
 * answers (sides.ts) is one; each stage (pages, shadow, invalidation) wraps one and returns one,
 * composed once per config in dispatch.ts (the shape of undici's interceptors). See
 * docs/architecture.md ("The read path").
 */
import type { SyncOrAsync } from '../hot-path.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import type { AbortSignalLike } from '../upstream/types.js';
import type { Outcome, Side } from './parts.js';

/** What an answer depends on beyond the canonical request. */
export interface ReadFacts {
  /** The side chosen for this request (choose-side.ts). */
  readonly side: Side;
  /** The client's headers (lower-case names). */
  readonly clientHeaders: Readonly<Record<string, string>>;
  readonly rawBody: Uint8Array | null;
  /** The answer will be served to other clients too (a page fill): nothing the key does not hold is sent. */
  readonly shared: boolean;
  /** Cancels the upstream call when the client leaves (asked for only when a call is made). */
  readonly signal: () => AbortSignalLike | undefined;
  /** A background comparison's call: no fallback, no client's conditions, its own timeout. */
  readonly background?: { readonly timeoutMs: number } | undefined;
  readonly requestId: string;
  /** Keeps background work alive after the answer (RuntimeBindings.defer: edge waitUntil). */
  readonly defer: (work: Promise<unknown>) => void;
}

/** The signal of a call no client waits on (a shared fill, a background comparison): nothing cancels it. */
export const NO_SIGNAL = (): undefined => undefined;

export type Answerer = (request: CanonicalRequest, facts: ReadFacts) => SyncOrAsync<Outcome>;

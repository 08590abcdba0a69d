/**
 * The page cache's shared types: what is stored, how long it is good for, what a request asks of
 * the cache and what it gets back. Imported by every cache module and by the pipeline; imports
 * nothing.
 */

export interface StoredAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Set-Cookie values, kept apart: a page that sets cookies is never stored. */
  readonly setCookie: readonly string[];
  readonly body: Uint8Array;
  /** Legacy's answer for a failed api2 (a fallback): served to the requests that waited for it, never stored under the api2 page's key. */
  readonly fallback?: true;
}

export interface FreshnessPolicy {
  readonly ttlMs: number;
  readonly staleWhileRevalidateMs: number;
  readonly staleIfErrorMs: number;
}

/** A stored page, in any tier: the answer, when it was produced, and the policy it was stored under. */
export interface TierEntry {
  readonly answer: StoredAnswer;
  readonly storedAt: number;
  readonly policy: FreshnessPolicy;
}

export type CacheOutcome = 'HIT' | 'MISS' | 'STALE' | 'BYPASS';

/** A served page and how it was served. */
export interface Served {
  readonly answer: StoredAnswer;
  readonly outcome: CacheOutcome;
}

/** A page's source: the upstream, asked for this request, or for a background refresh (no client to cancel it). */
export interface PageSource {
  produce(): Promise<StoredAnswer>;
  refresh(): Promise<StoredAnswer>;
}

export interface ServeRequest {
  readonly key: string;
  /** Requests that may share one upstream call (usually the key; narrower when trust is not yet established). */
  readonly flightKey: string;
  readonly policy: FreshnessPolicy;
  readonly bypass: boolean;
  /** False when the stored page must not be served to this request (e.g. its api key is not known valid yet). */
  readonly mayReadStored: boolean;
  /** Entries can be dropped together by group (e.g. one user's pages). */
  readonly group: string | null;
  /** Where the page comes from (the answerer the page stage wraps), called down, never back up. */
  readonly source: PageSource;
  /** Told each answer the source gave, before it is stored (what the search cache learns of the api key). */
  readonly learn: (answer: StoredAnswer) => void;
  /** Whether a 200 answer may be stored (e.g. no `Vary: *`, no Set-Cookie). */
  readonly storable: (answer: StoredAnswer) => boolean;
  /** Given a background refresh this request started, so the runtime can keep it alive (edge `waitUntil`). */
  readonly defer?: (work: Promise<unknown>) => void;
  /**
   * With a shared tier: a fact (remembered by any replica through `remember`) that lets this
   * request read a stored page when `mayReadStored` is false here (built only on an L1 miss).
   */
  readonly trustFact?: (() => string) | undefined;
}

export interface CacheCounters {
  hits: number;
  misses: number;
  stale: number;
  bypass: number;
  stored: number;
  evicted: number;
  refreshes: number;
  /** HIT or STALE pages found in the shared tier (L1 had none). */
  tierHits: number;
}

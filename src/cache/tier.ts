/**
 * The port of a shared cache tier (L2) behind the per-process memory tier (L1): Redis/Valkey on
 * Node (src/node/fleet/redis-tier.ts), the Workers Cache API on the edge, the null tier
 * (null-tier.ts) when there is none. Every method resolves, never
 * rejects: a tier that is down, slow or flushed answers "nothing there" and the gateway goes on
 * with its L1 and the upstream (the implementation says how it notices and recovers). A tier that
 * knows an answer without I/O (the null tier) gives it at once, not as a promise, so a miss calls
 * the upstream in the tick it arrived.
 *
 * Keys reaching a tier are the structured page keys (src/cache/page-key.ts), which never hold a
 * credential; a tier stores them hashed.
 */
import type { TierEntry } from './types.js';

/** What one read of the tier found. */
export interface TierRead {
  /** The entry, when there is one that no invalidation has dropped since it was written. */
  readonly entry: TierEntry | undefined;
  /** Whether the trust fact asked for is known in the tier (see ServeRequest.trustFact). */
  readonly trusted: boolean;
  /** Opaque: handed back to write(), so an entry produced before an invalidation is never read after it. */
  readonly stamp: string;
}

/** The right to call the upstream for a key on behalf of every replica, until released or expired. */
export interface TierLease {
  /** Ordered across replicas (fixed width): a write carrying an older fence than the stored entry's is refused. */
  readonly fence: string;
  release(): void;
}

export type LockOutcome = TierLease | 'held' | 'out';

export interface CacheTier {
  /** `trustFact`: also ask whether this fact was remembered (null: do not ask). */
  read(key: string, group: string | null, trustFact: string | null): TierRead | undefined | Promise<TierRead | undefined>;
  /** Stores an entry (fire and forget). `stamp` from the read that preceded the call. */
  write(key: string, group: string | null, entry: TierEntry, stamp: string, lease: TierLease | undefined): void;
  /** Tries to become the one replica that calls the upstream for this flight. */
  lock(flightKey: string): LockOutcome | Promise<LockOutcome>;
  /** Whether some replica still holds the lock of this flight. */
  locked(flightKey: string): Promise<boolean>;
  /** How long a lock lives when its holder never releases it (so waiting longer is pointless). */
  readonly lockTtlMs: number;
  /** Remembers a fact (e.g. "this api key was answered 200") for every replica, for ttlMs. */
  remember(fact: string, ttlMs: number): void;
  /**
   * Drops every entry on every replica. Resolves true once the tier holds the invalidation (every
   * replica's next read sees it), false when it could not be made sure in time (the tier is out or
   * slow: the implementation bounds the wait, says so and counts it). Never rejects.
   */
  invalidateAll(): Promise<boolean>;
  /** Drops one group's entries on every replica; resolves as invalidateAll. */
  invalidateGroup(group: string): Promise<boolean>;
  /** Told of invalidations made by any replica (group null: all), to drop L1 entries. Returns what detaches the listener. */
  onInvalidate(listener: (group: string | null) => void): () => void;
  /**
   * The stamp a read of this group would carry now (the shared generations), so an L1 entry filled
   * under an older one is not served: undefined when the tier cannot say (out: L1 is trusted as
   * without a tier). Absent on a tier that cannot answer it cheaply (L1 hits are then not checked).
   */
  readonly currentStamp?: (group: string | null) => string | undefined | Promise<string | undefined>;
  /** Told when the tier is back after an outage or a lost subscription: messages may have been missed. Returns what detaches the listener. */
  onResync?(listener: () => void): () => void;
}

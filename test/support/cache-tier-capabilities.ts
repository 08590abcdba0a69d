/**
 * What the cache tier contract (cache-tier-contract.ts) is told about a tier: its declared
 * capabilities, and how to start two replicas of one fleet and one whose store is out.
 */
import type { CacheTier } from '../../src/cache/tier.js';

export interface TierCapabilities {
  /** Keeps pages for every replica (false: a write is never read back, e.g. the null tier). */
  readonly storesPages: boolean;
  /** Remembers trust facts for every replica until their ttl passes (false: a read is never trusted). */
  readonly remembersFacts: boolean;
  /** One lock per flight across replicas, fenced, expiring after lockTtlMs (false: lock answers 'out'). */
  readonly locks: boolean;
  /** How another replica's onInvalidate hears an invalidation: before it resolves, soon after, or never (no channel). */
  readonly tellsReplicas: 'before-resolving' | 'soon-after' | 'never';
  /** Answers read and lock in the tick they are asked (no I/O: the null tier). */
  readonly answersAtOnce: boolean;
  /** Offers currentStamp (the stamp a read of a group would carry now). */
  readonly currentStamp: boolean;
  /** What an invalidation through the tier when it is out resolves to (true: an out tier holds nothing to hide); 'never out': no store to lose (no I/O). */
  readonly invalidationWhenOut: boolean | 'never out';
}

/** Two replicas of one fleet over one store, and a replica whose store is out (down, failing, no primary) unless it is 'never out'. */
export interface TierFleet {
  readonly a: CacheTier;
  readonly b: CacheTier;
  readonly out: CacheTier | undefined;
  close(): Promise<void>;
}

/**
 * The shared tier when there is none: holds nothing, locks nothing (each process single-flights
 * for itself), and every invalidation is taken at once (there is no one else to tell). The page
 * cache runs one flow over L1 and this tier, as over L1 and Redis.
 */
import type { CacheTier } from './tier.js';

export const NULL_TIER: CacheTier = {
  lockTtlMs: 0,
  read: () => undefined,
  write: () => undefined,
  lock: () => 'out',
  locked: () => Promise.resolve(false),
  remember: () => undefined,
  invalidateAll: () => Promise.resolve(true),
  invalidateGroup: () => Promise.resolve(true),
  onInvalidate: () => () => undefined,
};

/**
 * HTTP-style freshness of a stored page, the same for every tier (pure):
 *
 *   age < ttl                       fresh: HIT
 *   age < ttl + stale-while-revalidate   STALE now, one background refresh
 *   age < ttl + stale-if-error      served (STALE) only when the upstream fails or answers 5xx
 */
import type { FreshnessPolicy, TierEntry } from './types.js';

export function isFresh(entry: TierEntry, now: number): boolean {
  return now - entry.storedAt < entry.policy.ttlMs;
}

export function withinStaleWhileRevalidate(entry: TierEntry, now: number): boolean {
  return now - entry.storedAt < entry.policy.ttlMs + entry.policy.staleWhileRevalidateMs;
}

export function servesOnError(entry: TierEntry | undefined, now: number): entry is TierEntry {
  return entry !== undefined && now - entry.storedAt < entry.policy.ttlMs + entry.policy.staleIfErrorMs;
}

/** How long a tier keeps an entry: until no rule above can serve it. */
export function keepForMs(policy: FreshnessPolicy, storedAt: number, now: number): number {
  return policy.ttlMs + Math.max(policy.staleWhileRevalidateMs, policy.staleIfErrorMs) - (now - storedAt);
}

/** The more recently produced of two entries. */
export function newest<E extends TierEntry>(a: E | undefined, b: E | undefined): E | undefined {
  if (!a) return b;
  if (!b) return a;
  return a.storedAt >= b.storedAt ? a : b;
}

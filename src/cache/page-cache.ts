/**
 * A bounded page cache with HTTP-style freshness, on lru-cache:
 *
 *   fresh (age < ttl)                          → HIT
 *   stale-while-revalidate (age < ttl + swr)   → STALE now, one background refresh
 *   miss, or older                             → MISS: one upstream call per key however many
 *                                                 requests wait for it (single-flight)
 *   the upstream fails (throws or answers 5xx) and the entry is younger than ttl + stale-if-error
 *                                              → STALE
 *   bypass (the client sent no-cache)          → BYPASS: not read; a good answer replaces the entry
 *
 * Only complete 200 answers are stored. Bounds: entry count and bytes (the stored bytes plus
 * headers and key); the cache never grows past either. Nothing here knows what a page is for:
 * keys are built by the caller (src/cache/page-key.ts).
 */
import { LRUCache } from 'lru-cache';
import type { CacheTier } from './tier.js';
import { TierFlow } from './tier-flow.js';

export interface StoredAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Set-Cookie values, kept apart: a page that sets cookies is never stored. */
  readonly setCookie: readonly string[];
  readonly body: Uint8Array;
}

export interface FreshnessPolicy {
  readonly ttlMs: number;
  readonly staleWhileRevalidateMs: number;
  readonly staleIfErrorMs: number;
}

export type CacheOutcome = 'HIT' | 'MISS' | 'STALE' | 'BYPASS';

/** A served page and how it was served. */
export interface Served {
  readonly answer: StoredAnswer;
  readonly outcome: CacheOutcome;
}

interface Entry {
  readonly answer: StoredAnswer;
  readonly storedAt: number;
  readonly policy: FreshnessPolicy;
  readonly size: number;
  readonly group: string | null;
  /** The shared tier's generations it was filled under (undefined: filled while the tier was out, or without one). */
  readonly stamp: string | undefined;
}

export interface PageCacheOptions {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly now?: () => number;
  /** A shared tier (L2) behind this one; L1 hits never touch it. */
  readonly tier?: CacheTier | undefined;
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
  /** Calls the upstream for this request. */
  readonly produce: () => Promise<StoredAnswer>;
  /** Calls the upstream for a background refresh (no client to cancel it). */
  readonly refresh: () => Promise<StoredAnswer>;
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

const ENTRY_OVERHEAD_BYTES = 256;

function sizeOf(key: string, answer: StoredAnswer): number {
  let size = ENTRY_OVERHEAD_BYTES + key.length * 2 + answer.body.byteLength;
  for (const name in answer.headers) size += (name.length + (answer.headers[name]?.length ?? 0)) * 2;
  return size;
}

export class PageCache {
  readonly counters: CacheCounters = { hits: 0, misses: 0, stale: 0, bypass: 0, stored: 0, evicted: 0, refreshes: 0, tierHits: 0 };
  private readonly now: () => number;
  private readonly entries: LRUCache<string, Entry>;
  private readonly inflight = new Map<string, Promise<StoredAnswer>>();
  private readonly groups = new Map<string, Set<string>>();
  private readonly tier: CacheTier | undefined;
  private readonly flow: TierFlow | undefined;
  /**
   * Local invalidations, so a fill that started before one never stores its answer after it:
   * `epoch` counts them, `allMark` / `groupMarks` say when everything / a group was last dropped.
   */
  private epoch = 0;
  private allMark = 0;
  private readonly groupMarks = new Map<string, number>();

  constructor(options: PageCacheOptions) {
    this.now = options.now ?? (() => Date.now());
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation: (entry) => entry.size,
      dispose: (entry, key, reason) => {
        if (reason === 'evict') this.counters.evicted += 1;
        if (entry.group) {
          const members = this.groups.get(entry.group);
          members?.delete(key);
          if (members?.size === 0) this.groups.delete(entry.group);
        }
      },
    });
    this.tier = options.tier;
    if (this.tier) {
      this.flow = new TierFlow(this.tier, {
        now: this.now,
        epoch: () => this.epoch,
        storeLocal: (request, entry, stamp, since) => this.store(request, entry.answer, since, entry.storedAt, stamp),
        countTierHit: () => void (this.counters.tierHits += 1),
      });
      this.tier.onInvalidate((group) => (group === null ? this.dropAll() : this.dropGroup(group)));
      this.tier.onResync?.(() => this.dropOutdated());
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  /**
   * A HIT or a STALE page is answered at once (no promise: nothing waits for it); a MISS or a
   * BYPASS waits for the upstream.
   */
  serve(request: ServeRequest): Served | Promise<Served> {
    if (request.bypass) {
      this.counters.bypass += 1;
      if (this.flow) return this.flow.bypass(request).then((answer) => ({ answer, outcome: 'BYPASS' as const }));
      return this.fetchAndStore(request, request.produce).then((answer) => ({ answer, outcome: 'BYPASS' as const }));
    }
    const entry = request.mayReadStored ? this.entries.get(request.key) : undefined;
    const age = entry ? this.now() - entry.storedAt : Infinity;
    if (entry && age < entry.policy.ttlMs + entry.policy.staleWhileRevalidateMs) {
      // A shared tier says whether a write through any replica dropped this copy since it was filled.
      const current = this.tier?.currentStamp?.(entry.group);
      if (current instanceof Promise) return current.then((stamp) => this.serveChecked(request, entry, stamp));
      return this.serveStored(request, entry, age);
    }
    return this.serveMissed(request, entry, age);
  }

  private serveStored(request: ServeRequest, entry: Entry, age: number): Served {
    if (age < entry.policy.ttlMs) {
      this.counters.hits += 1;
      return { answer: entry.answer, outcome: 'HIT' };
    }
    this.counters.stale += 1;
    this.refreshInBackground(request);
    return { answer: entry.answer, outcome: 'STALE' };
  }

  private serveMissed(request: ServeRequest, entry: Entry | undefined, age: number): Promise<Served> {
    if (this.flow) return this.serveThroughTier(this.flow, request, entry);
    this.counters.misses += 1;
    return this.serveMiss(request, entry, age);
  }

  /** An L1 copy against the tier's current stamp (undefined: the tier cannot say, the copy is served as without one). */
  private serveChecked(request: ServeRequest, entry: Entry, current: string | undefined): Served | Promise<Served> {
    if (current === undefined || current === entry.stamp) return this.serveStored(request, entry, this.now() - entry.storedAt);
    if (this.entries.peek(request.key) === entry) this.entries.delete(request.key);
    return this.serveMissed(request, undefined, Infinity);
  }

  private async serveThroughTier(flow: TierFlow, request: ServeRequest, entry: Entry | undefined): Promise<Served> {
    const served = await flow.serve(request, entry);
    if (served.outcome === 'HIT') this.counters.hits += 1;
    else if (served.outcome === 'STALE') this.counters.stale += 1;
    else this.counters.misses += 1;
    return served;
  }

  /** Remembers a fact for every replica (nothing without a shared tier: `mayReadStored` says it here). */
  remember(fact: string, ttlMs: number): void {
    this.tier?.remember(fact, ttlMs);
  }

  private async serveMiss(request: ServeRequest, entry: Entry | undefined, age: number): Promise<Served> {
    let answer: StoredAnswer;
    try {
      answer = await this.fetchAndStore(request, request.produce);
    } catch (error) {
      if (entry && age < entry.policy.ttlMs + entry.policy.staleIfErrorMs) return this.staleOnError(entry);
      throw error;
    }
    if (answer.status >= 500 && entry && age < entry.policy.ttlMs + entry.policy.staleIfErrorMs) return this.staleOnError(entry);
    return { answer, outcome: 'MISS' };
  }

  /**
   * Drops every entry (e.g. a write changed what pages show), here at once and on every replica
   * through the shared tier: resolves once the tier took it (true), or could not in time (false).
   */
  invalidateAll(): Promise<boolean> {
    this.dropAll();
    return this.tier ? this.tier.invalidateAll() : Promise.resolve(true);
  }

  /** Drops the entries of one group (e.g. one user's pages after their favorites changed); resolves as invalidateAll. */
  invalidateGroup(group: string): Promise<boolean> {
    this.dropGroup(group);
    return this.tier ? this.tier.invalidateGroup(group) : Promise.resolve(true);
  }

  private dropAll(): void {
    this.epoch += 1;
    this.allMark = this.epoch;
    this.groupMarks.clear();
    this.entries.clear();
  }

  private dropGroup(group: string): void {
    this.epoch += 1;
    // Bounded: past 10,000 groups dropped, a fill in flight is judged against "everything dropped".
    if (this.groupMarks.size >= 10_000) {
      this.allMark = this.epoch;
      this.groupMarks.clear();
    } else this.groupMarks.set(group, this.epoch);
    for (const key of [...(this.groups.get(group) ?? [])]) this.entries.delete(key);
  }

  /** Whether an invalidation dropped this group's pages after `since` (an epoch read when a fill started). */
  private droppedSince(since: number, group: string | null): boolean {
    return this.allMark > since || (group !== null && (this.groupMarks.get(group) ?? 0) > since);
  }

  /** The tier is back: drops every copy filled under other generations than the current ones (messages may have been lost). */
  private dropOutdated(): void {
    const tier = this.tier;
    if (!tier?.currentStamp) return;
    for (const [key, entry] of this.entries.entries()) {
      void Promise.resolve(tier.currentStamp(entry.group)).then((current) => {
        if (current !== entry.stamp && this.entries.peek(key) === entry) this.entries.delete(key);
      });
    }
  }

  private staleOnError(entry: Entry): Served {
    this.counters.stale += 1;
    this.counters.misses -= 1;
    return { answer: entry.answer, outcome: 'STALE' };
  }

  private refreshInBackground(request: ServeRequest): void {
    if (this.inflight.has(request.flightKey)) return;
    this.counters.refreshes += 1;
    const refreshing = this.flow
      ? this.flow.refresh(request)
      : this.fetchAndStore(request, request.refresh).catch(() => {
      /* the stale page stays; the next request tries again */
    });
    if (refreshing) request.defer?.(refreshing);
  }

  private fetchAndStore(request: ServeRequest, call: () => Promise<StoredAnswer>): Promise<StoredAnswer> {
    const running = this.inflight.get(request.flightKey);
    if (running) return running;
    const since = this.epoch;
    const started = call()
      .then((answer) => {
        if (answer.status === 200 && request.storable(answer)) this.store(request, answer, since);
        return answer;
      })
      .finally(() => this.inflight.delete(request.flightKey));
    this.inflight.set(request.flightKey, started);
    return started;
  }

  /** `since`: the epoch when the fill started (its answer is not kept if a write dropped its pages meanwhile). */
  private store(request: ServeRequest, answer: StoredAnswer, since: number, storedAt = this.now(), stamp?: string): void {
    if (this.droppedSince(since, request.group)) return;
    const { policy } = request;
    const entry: Entry = { answer, storedAt, policy, size: sizeOf(request.key, answer), group: request.group, stamp };
    const keepFor = policy.ttlMs + Math.max(policy.staleWhileRevalidateMs, policy.staleIfErrorMs) - (this.now() - storedAt);
    if (keepFor <= 0) return;
    this.entries.set(request.key, entry, { ttl: keepFor });
    if (!this.entries.has(request.key)) return; // larger than the whole cache: not stored
    this.counters.stored += 1;
    if (request.group) {
      let members = this.groups.get(request.group);
      if (!members) this.groups.set(request.group, (members = new Set()));
      members.add(request.key);
    }
  }
}

/**
 * The page cache: one flow over two tiers, L1 (this process, memory-tier.ts) and L2 (shared by
 * the replicas: Redis, the Workers Cache API, or the null tier when there is none):
 *
 *   L1 fresh (age < ttl)                        → HIT, in the tick the request arrived
 *   L1 within stale-while-revalidate            → STALE now, one background refresh
 *     (with an L2 that can say so, the copy is first checked against its current stamp: a copy
 *      that an invalidation through any replica dropped goes on as a miss)
 *   bypass (the client sent no-cache)           → BYPASS: not read; a good answer replaces the
 *                                                 page in both tiers (bypasses share one call)
 *   miss: one flight per flightKey in this process (single-flight), then
 *     read L2 (entry + stamp + trust fact)
 *       fresh        → HIT (copied into L1)
 *       within swr   → STALE (copied into L1), then a background refresh
 *       else         → lock the page across replicas (the page key when this request may read
 *                      the page, its api key known here or through L2; else the flight key)
 *          got it    → call the upstream, store in L1 and L2, release
 *          held      → poll L2 until the entry is filled, the lock is gone or its TTL passed;
 *                      then call the upstream if nothing came (a dead holder blocks no page
 *                      longer than the lock's TTL)
 *          no lock   → call the upstream (the null tier; L2 out)
 *   the upstream fails (throws or answers 5xx)  → STALE from the newest of the L1 and L2 copies
 *                                                 still within ttl + stale-if-error, else its answer
 *
 * Only complete 200 answers the request calls storable are stored. A fill that started before an
 * invalidation never stores its answer after it. Nothing here knows what a page is for: keys are
 * built by the caller (src/cache/page-key.ts).
 */
import { whenReady } from '../hot-path.js';
import { isFresh, newest, servesOnError, withinStaleWhileRevalidate } from './freshness.js';
import { MemoryTier } from './memory-tier.js';
import type { LocalEntry } from './memory-tier.js';
import { NULL_TIER } from './null-tier.js';
import type { CacheTier, LockOutcome, TierLease, TierRead } from './tier.js';
import type { CacheCounters, ServeRequest, Served, StoredAnswer, TierEntry } from './types.js';

export interface PageCacheOptions {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly now?: () => number;
  /** A shared tier (L2) behind L1; the null tier when absent. */
  readonly tier?: CacheTier | undefined;
  /** Told of every invalidation the shared tier brings (any replica's write; group null: all). */
  readonly onInvalidated?: (group: string | null) => void;
}

/** What one flight ended with: a page from L2, the upstream's answer, or its failure (with the L2 copy for stale-if-error). */
type Fill =
  | { readonly outcome: 'HIT' | 'STALE'; readonly answer: StoredAnswer }
  | { readonly outcome: 'MISS'; readonly answer: StoredAnswer; readonly fallback: TierEntry | undefined }
  | { readonly outcome: 'FAILED'; readonly error: unknown; readonly fallback: TierEntry | undefined };

type FillKind = 'miss' | 'refresh' | 'bypass';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class PageCache {
  readonly counters: CacheCounters = { hits: 0, misses: 0, stale: 0, bypass: 0, stored: 0, evicted: 0, refreshes: 0, tierHits: 0 };
  private readonly now: () => number;
  private readonly local: MemoryTier;
  private readonly shared: CacheTier;
  private readonly flights = new Map<string, Promise<Fill>>();
  /** What detaches this cache from the shared tier (see dispose). */
  private readonly detach: Array<() => void>;

  constructor(
    options: PageCacheOptions,
    /** How often a replica waiting on another's lock looks for the page in L2. */
    private readonly pollMs = 20,
  ) {
    this.now = options.now ?? (() => Date.now());
    this.local = new MemoryTier({ maxEntries: options.maxEntries, maxBytes: options.maxBytes, now: this.now, onEvicted: () => void (this.counters.evicted += 1) });
    this.shared = options.tier ?? NULL_TIER;
    this.detach = [
      this.shared.onInvalidate((group) => {
        if (group === null) this.local.dropAll();
        else this.local.dropGroup(group);
        options.onInvalidated?.(group);
      }),
      ...(this.shared.onResync ? [this.shared.onResync(() => this.dropOutdated())] : []),
    ];
  }

  /** Detaches this cache from the shared tier, which outlives it (a reload replaced it): the tier no longer holds it. */
  dispose(): void {
    for (const detach of this.detach.splice(0)) detach();
  }

  get size(): { entries: number; bytes: number } {
    return this.local.size;
  }

  /**
   * A HIT or a STALE page from L1 is answered at once (no promise: nothing waits for it) unless L2
   * checks L1 copies; a miss or a bypass waits for L2 or the upstream.
   */
  serve(request: ServeRequest): Served | Promise<Served> {
    if (request.bypass) return this.serveBypass(request);
    const entry = request.mayReadStored ? this.local.get(request.key) : undefined;
    if (entry && withinStaleWhileRevalidate(entry, this.now())) {
      // A shared tier says whether a write through any replica dropped this copy since it was filled.
      const current = this.shared.currentStamp?.(entry.group);
      if (current !== undefined) return whenReady(current, (stamp) => this.serveChecked(request, entry, stamp));
    }
    return this.serveLocal(request, entry);
  }

  /** Remembers a fact for every replica (nothing without a shared tier: `mayReadStored` says it here). */
  remember(fact: string, ttlMs: number): void {
    this.shared.remember(fact, ttlMs);
  }

  /**
   * Drops every entry (e.g. a write changed what pages show), here at once and on every replica
   * through the shared tier: resolves once the tier took it (true), or could not in time (false).
   */
  invalidateAll(): Promise<boolean> {
    this.local.dropAll();
    return this.shared.invalidateAll();
  }

  /** Drops the entries of one group (e.g. one user's pages after their favorites changed); resolves as invalidateAll. */
  invalidateGroup(group: string): Promise<boolean> {
    this.local.dropGroup(group);
    return this.shared.invalidateGroup(group);
  }

  private serveLocal(request: ServeRequest, entry: LocalEntry | undefined): Served | Promise<Served> {
    const now = this.now();
    if (entry && isFresh(entry, now)) {
      this.counters.hits += 1;
      return { answer: entry.answer, outcome: 'HIT' };
    }
    if (entry && withinStaleWhileRevalidate(entry, now)) {
      this.counters.stale += 1;
      this.refreshInBackground(request);
      return { answer: entry.answer, outcome: 'STALE' };
    }
    return this.serveMiss(request, entry);
  }

  /** An L1 copy against the shared tier's current stamp (undefined: the tier cannot say, the copy is served as without one). */
  private serveChecked(request: ServeRequest, entry: LocalEntry, current: string | undefined): Served | Promise<Served> {
    if (current === undefined || current === entry.stamp) return this.serveLocal(request, entry);
    this.local.drop(request.key, entry);
    return this.serveMiss(request, undefined);
  }

  private async serveMiss(request: ServeRequest, entry: LocalEntry | undefined): Promise<Served> {
    const fill = await this.flight(request.flightKey, () => this.fill(request, 'miss'));
    if (fill.outcome !== 'MISS' && fill.outcome !== 'FAILED') {
      this.counters[fill.outcome === 'HIT' ? 'hits' : 'stale'] += 1;
      return { answer: fill.answer, outcome: fill.outcome };
    }
    const stale = newest<TierEntry>(entry, fill.fallback);
    if ((fill.outcome === 'FAILED' || fill.answer.status >= 500) && servesOnError(stale, this.now())) {
      this.counters.stale += 1;
      return { answer: stale.answer, outcome: 'STALE' };
    }
    this.counters.misses += 1;
    if (fill.outcome === 'FAILED') throw fill.error;
    return { answer: fill.answer, outcome: 'MISS' };
  }

  private async serveBypass(request: ServeRequest): Promise<Served> {
    this.counters.bypass += 1;
    // Never joins a miss's flight (which may answer from L2): bypasses share a call only among themselves.
    const fill = await this.flight(`${request.flightKey}\nbypass`, () => this.fill(request, 'bypass'));
    if (fill.outcome === 'FAILED') throw fill.error;
    return { answer: fill.answer, outcome: 'BYPASS' };
  }

  private refreshInBackground(request: ServeRequest): void {
    if (this.flights.has(request.flightKey)) return;
    this.counters.refreshes += 1;
    const refreshing = this.flight(request.flightKey, () => this.fill(request, 'refresh')).then(
      () => undefined,
      () => undefined, // the stale page stays; the next request tries again
    );
    request.defer?.(refreshing);
  }

  private flight(flightKey: string, start: () => Promise<Fill>): Promise<Fill> {
    const running = this.flights.get(flightKey);
    if (running) return running;
    const started = start().finally(() => this.flights.delete(flightKey));
    this.flights.set(flightKey, started);
    return started;
  }

  /**
   * The one miss path: L2, the lock across replicas, the upstream, and storing in both tiers.
   * Written in steps so that a tier answering at once (the null tier) costs no turn: the upstream
   * is called in the tick the request arrived, as without a tier.
   */
  private fill(request: ServeRequest, kind: FillKind): Promise<Fill> {
    const since = this.local.epoch;
    const read = this.shared.read(request.key, request.group, kind === 'bypass' || request.mayReadStored ? null : (request.trustFact?.() ?? null));
    return Promise.resolve(whenReady(read, (done) => this.fillAfterRead(request, kind, since, done)));
  }

  private fillAfterRead(request: ServeRequest, kind: FillKind, since: number, read: TierRead | undefined): Promise<Fill> {
    if (kind === 'bypass') return this.call(request, kind, since, read, undefined, undefined);
    const found = this.readable(request, read);
    if (found && read && isFresh(found, this.now())) return Promise.resolve(this.adopt(request, found, 'HIT', read.stamp, since));
    if (found && read && kind === 'miss' && withinStaleWhileRevalidate(found, this.now())) {
      const served = this.adopt(request, found, 'STALE', read.stamp, since);
      setTimeout(() => this.refreshInBackground(request), 0);
      return Promise.resolve(served);
    }
    // One lock per page for every replica that may read it, however it knows the api key (first-hand here, or through the tier).
    const lockKey = request.mayReadStored || read?.trusted === true ? request.key : request.flightKey;
    const lock = this.shared.lock(lockKey);
    const locked = async (outcome: LockOutcome): Promise<Fill> => {
      if (outcome === 'held') {
        const filled = await this.waitForFill(request, lockKey);
        if (filled) return this.adopt(request, filled.entry, 'MISS', filled.stamp, since);
      }
      return this.call(request, kind, since, read, found, typeof outcome === 'object' ? outcome : undefined);
    };
    return Promise.resolve(whenReady(lock, locked));
  }

  /** Calls the upstream (synchronously: no turn before it), stores a storable 200 in both tiers. */
  private async call(request: ServeRequest, kind: FillKind, since: number, read: TierRead | undefined, found: TierEntry | undefined, lease: TierLease | undefined): Promise<Fill> {
    let answer: StoredAnswer;
    try {
      answer = await (kind === 'refresh' ? request.source.refresh() : request.source.produce());
      request.learn(answer);
    } catch (error) {
      lease?.release();
      return { outcome: 'FAILED', error, fallback: found };
    }
    if (answer.status === 200 && request.storable(answer)) {
      const entry: TierEntry = { answer, storedAt: this.now(), policy: request.policy };
      if (this.local.put(request.key, request.group, entry, read?.stamp, since)) this.counters.stored += 1;
      this.shared.write(request.key, request.group, entry, read?.stamp ?? '', lease);
    }
    lease?.release();
    return { outcome: 'MISS', answer, fallback: found };
  }

  /** Polls L2 while another replica holds the lock; null when the lock went away empty-handed. */
  private async waitForFill(request: ServeRequest, lockKey: string): Promise<{ entry: TierEntry; stamp: string } | null | undefined> {
    const deadline = this.now() + this.shared.lockTtlMs;
    while (this.now() < deadline) {
      await sleep(this.pollMs);
      const filled = this.freshFill(request, await this.read(request));
      if (filled) return filled;
      if (!(await this.shared.locked(lockKey))) return this.freshFill(request, await this.read(request)) ?? null;
    }
    return undefined;
  }

  private read(request: ServeRequest): TierRead | undefined | Promise<TierRead | undefined> {
    return this.shared.read(request.key, request.group, request.mayReadStored ? null : (request.trustFact?.() ?? null));
  }

  private freshFill(request: ServeRequest, read: TierRead | undefined): { entry: TierEntry; stamp: string } | undefined {
    const entry = this.readable(request, read);
    return entry && read && isFresh(entry, this.now()) ? { entry, stamp: read.stamp } : undefined;
  }

  private readable(request: ServeRequest, read: TierRead | undefined): TierEntry | undefined {
    return read?.entry && (request.mayReadStored || read.trusted) ? read.entry : undefined;
  }

  /** A page read from L2 is copied into L1 (unless an invalidation since the flight started dropped its group). */
  private adopt(request: ServeRequest, entry: TierEntry, outcome: 'HIT' | 'STALE' | 'MISS', stamp: string, since: number): Fill {
    if (this.local.put(request.key, request.group, entry, stamp, since)) this.counters.stored += 1;
    if (outcome === 'MISS') return { outcome, answer: entry.answer, fallback: undefined };
    this.counters.tierHits += 1;
    return { outcome, answer: entry.answer };
  }

  /** The tier is back: drops every copy filled under other generations than the current ones (messages may have been lost). */
  private dropOutdated(): void {
    const currentStamp = this.shared.currentStamp;
    if (!currentStamp) return;
    for (const [key, entry] of this.local.copies()) {
      void Promise.resolve(currentStamp(entry.group)).then((current) => {
        if (current !== entry.stamp) this.local.drop(key, entry);
      });
    }
  }
}

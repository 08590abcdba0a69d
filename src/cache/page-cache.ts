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
}

export interface PageCacheOptions {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly now?: () => number;
}

export interface CacheCounters {
  hits: number;
  misses: number;
  stale: number;
  bypass: number;
  stored: number;
  evicted: number;
  refreshes: number;
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
}

const ENTRY_OVERHEAD_BYTES = 256;

function sizeOf(key: string, answer: StoredAnswer): number {
  let size = ENTRY_OVERHEAD_BYTES + key.length * 2 + answer.body.byteLength;
  for (const name in answer.headers) size += (name.length + (answer.headers[name]?.length ?? 0)) * 2;
  return size;
}

export class PageCache {
  readonly counters: CacheCounters = { hits: 0, misses: 0, stale: 0, bypass: 0, stored: 0, evicted: 0, refreshes: 0 };
  private readonly now: () => number;
  private readonly entries: LRUCache<string, Entry>;
  private readonly inflight = new Map<string, Promise<StoredAnswer>>();
  private readonly groups = new Map<string, Set<string>>();

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
      return this.fetchAndStore(request, request.produce).then((answer) => ({ answer, outcome: 'BYPASS' as const }));
    }
    const entry = request.mayReadStored ? this.entries.get(request.key) : undefined;
    const age = entry ? this.now() - entry.storedAt : Infinity;
    if (entry && age < entry.policy.ttlMs) {
      this.counters.hits += 1;
      return { answer: entry.answer, outcome: 'HIT' };
    }
    if (entry && age < entry.policy.ttlMs + entry.policy.staleWhileRevalidateMs) {
      this.counters.stale += 1;
      this.refreshInBackground(request);
      return { answer: entry.answer, outcome: 'STALE' };
    }
    this.counters.misses += 1;
    return this.serveMiss(request, entry, age);
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

  /** Drops every entry (e.g. a write changed what pages show). */
  invalidateAll(): void {
    this.entries.clear();
  }

  /** Drops the entries of one group (e.g. one user's pages after their favorites changed). */
  invalidateGroup(group: string): void {
    for (const key of [...(this.groups.get(group) ?? [])]) this.entries.delete(key);
  }

  private staleOnError(entry: Entry): Served {
    this.counters.stale += 1;
    this.counters.misses -= 1;
    return { answer: entry.answer, outcome: 'STALE' };
  }

  private refreshInBackground(request: ServeRequest): void {
    if (this.inflight.has(request.flightKey)) return;
    this.counters.refreshes += 1;
    const refreshing = this.fetchAndStore(request, request.refresh).catch(() => {
      /* the stale page stays; the next request tries again */
    });
    request.defer?.(refreshing);
  }

  private fetchAndStore(request: ServeRequest, call: () => Promise<StoredAnswer>): Promise<StoredAnswer> {
    const running = this.inflight.get(request.flightKey);
    if (running) return running;
    const started = call()
      .then((answer) => {
        if (answer.status === 200 && request.storable(answer)) this.store(request, answer);
        return answer;
      })
      .finally(() => this.inflight.delete(request.flightKey));
    this.inflight.set(request.flightKey, started);
    return started;
  }

  private store(request: ServeRequest, answer: StoredAnswer): void {
    const { policy } = request;
    const entry: Entry = { answer, storedAt: this.now(), policy, size: sizeOf(request.key, answer), group: request.group };
    const keepFor = policy.ttlMs + Math.max(policy.staleWhileRevalidateMs, policy.staleIfErrorMs);
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

/**
 * An L1 miss when a shared tier (L2) is configured: one flight per flightKey in this process, and
 * across replicas one upstream call per key:
 *
 *   read L2 (entry + invalidation stamp + trust fact, one round trip)
 *     fresh           → HIT (copied into L1)
 *     within swr      → STALE (copied into L1), then a background refresh
 *     else            → lock the page (SET NX PX, fencing token): the page key when this request
 *                       may read the page (its api key known here or through L2), else the flight key
 *        got it       → call the upstream, store L1 and L2, release
 *        held         → poll L2 until the entry is filled, the lock is gone or its TTL passed;
 *                       then call the upstream ourselves if nothing came (a dead holder blocks no
 *                       page longer than the lock's TTL)
 *        tier out     → call the upstream (L1 only)
 *   stale-if-error uses the newest of the L1 and L2 entries.
 */
import type { CacheOutcome, ServeRequest, StoredAnswer } from './page-cache.js';
import type { CacheTier, TierEntry, TierLease, TierRead } from './tier.js';

export interface FlowResult {
  readonly answer: StoredAnswer;
  readonly outcome: CacheOutcome;
}

export interface FlowHooks {
  now(): number;
  /** L1's invalidation epoch, read when a flow starts and handed back to storeLocal. */
  epoch(): number;
  /** Puts an entry in L1 (an answer produced here, or one read from L2), unless L1 dropped its group after `since`. */
  storeLocal(request: ServeRequest, entry: TierEntry, stamp: string | undefined, since: number): void;
  /** Counts an L2 hit (HIT or STALE served from L2). */
  countTierHit(): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class TierFlow {
  private readonly flights = new Map<string, Promise<FlowResult>>();

  constructor(
    private readonly tier: CacheTier,
    private readonly hooks: FlowHooks,
    private readonly pollMs = 20,
  ) {}

  /** An L1 miss. `fallback`: the L1 entry, for stale-if-error. */
  serve(request: ServeRequest, fallback: TierEntry | undefined): Promise<FlowResult> {
    return this.flight(request, () => this.run(request, fallback, request.produce, false));
  }

  /** A client's no-cache: the upstream's good answer replaces the entry in both tiers. */
  async bypass(request: ServeRequest): Promise<StoredAnswer> {
    const since = this.hooks.epoch();
    const read = await this.tier.read(request.key, request.group, null);
    const answer = await request.produce();
    if (answer.status === 200 && request.storable(answer)) {
      const entry: TierEntry = { answer, storedAt: this.hooks.now(), policy: request.policy };
      this.hooks.storeLocal(request, entry, read?.stamp, since);
      this.tier.write(request.key, request.group, entry, read?.stamp ?? '', undefined);
    }
    return answer;
  }

  /** A background refresh of a stale page (skipped while a flight for it runs here). */
  refresh(request: ServeRequest): Promise<unknown> | undefined {
    if (this.flights.has(request.flightKey)) return undefined;
    return this.flight(request, () => this.run(request, undefined, request.refresh, true)).catch(() => {
      /* the stale page stays; the next request tries again */
    });
  }

  private flight(request: ServeRequest, start: () => Promise<FlowResult>): Promise<FlowResult> {
    const running = this.flights.get(request.flightKey);
    if (running) return running;
    const started = start().finally(() => this.flights.delete(request.flightKey));
    this.flights.set(request.flightKey, started);
    return started;
  }

  private async run(request: ServeRequest, fallback: TierEntry | undefined, call: () => Promise<StoredAnswer>, background: boolean): Promise<FlowResult> {
    const since = this.hooks.epoch();
    const read = await this.read(request);
    const found = this.readable(request, read);
    if (found && read) {
      const age = this.hooks.now() - found.storedAt;
      if (age < found.policy.ttlMs) return this.adopt(request, found, 'HIT', read.stamp, since);
      if (age < found.policy.ttlMs + found.policy.staleWhileRevalidateMs && !background) {
        const served = this.adopt(request, found, 'STALE', read.stamp, since);
        setTimeout(() => this.refresh(request), 0);
        return served;
      }
    }
    const stale = newest(fallback, found);
    // One lock per page for every replica that may read it, however it knows the api key (first-hand here, or through the tier).
    const lockKey = request.mayReadStored || read?.trusted === true ? request.key : request.flightKey;
    const lock = await this.tier.lock(lockKey);
    if (lock === 'held') {
      const filled = await this.waitForFill(request, lockKey);
      if (filled) return this.adopt(request, filled.entry, 'MISS', filled.stamp, since);
    }
    const lease: TierLease | undefined = typeof lock === 'object' ? lock : undefined;
    let answer: StoredAnswer;
    try {
      answer = await call();
    } catch (error) {
      lease?.release();
      if (this.servesOnError(stale)) return { answer: stale.answer, outcome: 'STALE' };
      throw error;
    }
    if (answer.status === 200 && request.storable(answer)) {
      const entry: TierEntry = { answer, storedAt: this.hooks.now(), policy: request.policy };
      this.hooks.storeLocal(request, entry, read?.stamp, since);
      this.tier.write(request.key, request.group, entry, read?.stamp ?? '', lease);
    }
    lease?.release();
    if (answer.status >= 500 && this.servesOnError(stale)) return { answer: stale.answer, outcome: 'STALE' };
    return { answer, outcome: 'MISS' };
  }

  /** Polls L2 while another replica holds the lock; null when the lock went away empty-handed. */
  private async waitForFill(request: ServeRequest, lockKey: string): Promise<{ entry: TierEntry; stamp: string } | null | undefined> {
    const deadline = this.hooks.now() + this.tier.lockTtlMs;
    while (this.hooks.now() < deadline) {
      await sleep(this.pollMs);
      const filled = this.freshFill(request, await this.read(request));
      if (filled) return filled;
      if (!(await this.tier.locked(lockKey))) return this.freshFill(request, await this.read(request)) ?? null;
    }
    return undefined;
  }

  private freshFill(request: ServeRequest, read: TierRead | undefined): { entry: TierEntry; stamp: string } | undefined {
    const entry = this.readable(request, read);
    return entry && read && this.hooks.now() - entry.storedAt < entry.policy.ttlMs ? { entry, stamp: read.stamp } : undefined;
  }

  private read(request: ServeRequest): Promise<TierRead | undefined> {
    return this.tier.read(request.key, request.group, request.mayReadStored ? null : (request.trustFact?.() ?? null));
  }

  private readable(request: ServeRequest, read: TierRead | undefined): TierEntry | undefined {
    return read?.entry && (request.mayReadStored || read.trusted) ? read.entry : undefined;
  }

  private adopt(request: ServeRequest, entry: TierEntry, outcome: CacheOutcome, stamp: string, since: number): FlowResult {
    this.hooks.storeLocal(request, entry, stamp, since);
    if (outcome !== 'MISS') this.hooks.countTierHit();
    return { answer: entry.answer, outcome };
  }

  private servesOnError(entry: TierEntry | undefined): entry is TierEntry {
    return entry !== undefined && this.hooks.now() - entry.storedAt < entry.policy.ttlMs + entry.policy.staleIfErrorMs;
  }
}

function newest(a: TierEntry | undefined, b: TierEntry | undefined): TierEntry | undefined {
  if (!a) return b;
  if (!b) return a;
  return a.storedAt >= b.storedAt ? a : b;
}

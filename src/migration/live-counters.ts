/**
 * Live migration counters: per operation and side, what the last minutes looked like (requests,
 * 4xx, 5xx, p50/p95, fallbacks, shadow comparisons, api2 breaker opens). Fed by the record sink,
 * the shadow sink and the breakers' transitions; read by the live console, the metrics and the
 * rollout controller (they never keep counters of their own).
 *
 * Per process: fixed time buckets in memory (`keepBuckets` of `bucketMs`, older ones dropped).
 * With a `store` (Redis in a fleet: src/migration/redis-counter-store.ts), each replica also adds
 * its increments to the store's bucket of the same start every `flushMs` and on close, and
 * `window()` sums the fleet's buckets there. The store out (or failing): `window()` answers this
 * replica's own counts, saying `scope: 'replica'`; it never throws. A flush that fails is dropped,
 * not retried (a retry after a timeout could count twice): the fleet's sum then misses those
 * increments, while this replica's own counts keep them.
 */
import type { OperationId } from '../catalogue/operations.js';
import type { RequestRecord } from '../gateway/request-record.js';
import type { BreakerState } from '../traffic/breaker.js';
import type { ShadowRecord } from '../traffic/shadow.js';
import { breakerOpensOf, clientsOf, merge, operationsOf, tallyBreakerOpen, tallyRequest, tallyShadow } from './live-tally.js';
import type { ClientBlockers, OperationCounts, Tally } from './live-tally.js';

export type { ClientBlockers, OperationCounts, ShadowCounts, Side, SideCounts } from './live-tally.js';

export type Scope = 'fleet' | 'replica';

export interface LiveWindow {
  /** fleet: summed over every replica through the store; replica: this process alone. */
  readonly scope: Scope;
  /** Epoch ms the window starts (bucket-aligned, so up to one bucket before the asked start). */
  readonly fromMs: number;
  /** Epoch ms it ends (now). */
  readonly toMs: number;
  /** Every catalogued operation, zeros where nothing was counted. */
  readonly operations: ReadonlyMap<OperationId, OperationCounts>;
  /** api2 circuit breaker transitions to open in the window. */
  readonly api2BreakerOpens: number;
  /** This replica's api2 breaker now (closed when there is none). */
  readonly api2BreakerState: BreakerState;
  /** Clients (by keyed hash: only with the usage log on) and what holds them back, the most held back first. */
  readonly clients: readonly ClientBlockers[];
}

export interface LiveCounters {
  /** fleet when a store is configured (a window may still fall back to replica while it is out). */
  readonly scope: Scope;
  readonly bucketMs: number;
  /** The oldest start a window can reach back to (keepBuckets × bucketMs). */
  readonly spanMs: number;
  recordRequest(record: RequestRecord): void;
  recordShadow(record: ShadowRecord): void;
  recordBreaker(upstream: string, to: BreakerState): void;
  /** Counts of everything recorded at or after `sinceMs` (bucket granularity); never rejects. */
  window(sinceMs: number): Promise<LiveWindow>;
  /** Sends what is not yet in the store; stops the timer. */
  close(): Promise<void>;
}

/** Where replicas add their increments and read the fleet's sums (one hash per bucket start). */
export interface CounterStore {
  /** Adds each bucket's increments; keeps a bucket `ttlMs`. Rejects when the store is out. */
  add(buckets: ReadonlyMap<number, ReadonlyMap<string, number>>, ttlMs: number): Promise<void>;
  /** The summed fields of each bucket start asked (missing ones empty). Rejects when the store is out. */
  read(starts: readonly number[]): Promise<ReadonlyArray<Readonly<Record<string, string>>>>;
}

export interface LiveCounterOptions {
  /** DECISION: 5 s buckets, 180 kept (15 minutes); the store flushed every second. */
  readonly bucketMs?: number;
  readonly keepBuckets?: number;
  readonly flushMs?: number;
  readonly store?: CounterStore;
  readonly now?: () => number;
}

const API2 = 'api2';

/** The live counters' bucket for a rollout's evaluation period (src/node/server.ts): a step is judged on whole buckets after it began. */
export function liveBucketMsOf(evaluationMs: number): number {
  return Math.max(50, Math.min(5_000, evaluationMs));
}

export function createLiveCounters(options: LiveCounterOptions = {}): LiveCounters {
  const bucketMs = options.bucketMs ?? 5_000;
  const keepBuckets = options.keepBuckets ?? 180;
  const spanMs = bucketMs * keepBuckets;
  const now = options.now ?? (() => Date.now());
  const { store } = options;
  const local = new Map<number, Tally>();
  let pending = new Map<number, Tally>();
  let api2Breaker: BreakerState = 'closed';
  let flushing: Promise<void> = Promise.resolve();

  const startOf = (ms: number) => Math.floor(ms / bucketMs) * bucketMs;
  const bucket = (buckets: Map<number, Tally>, start: number): Tally => {
    let tally = buckets.get(start);
    if (!tally) {
      tally = new Map();
      buckets.set(start, tally);
    }
    return tally;
  };
  const prune = (start: number) => {
    const oldest = start - spanMs;
    for (const key of local.keys()) if (key <= oldest) local.delete(key);
  };
  // The bucket being filled, kept at hand until the clock leaves it (local buckets are only pruned when a new one starts).
  let currentStart = Number.NaN;
  let current: Tally = new Map();
  // The record is handed through, not captured: counting a request makes no closure.
  const count = <R>(apply: (tally: Tally, record: R) => void, record: R, at?: number) => {
    const start = startOf(at === undefined || Number.isNaN(at) ? now() : at);
    if (start !== currentStart) {
      if (!local.has(start)) prune(start);
      current = bucket(local, start);
      currentStart = start;
    }
    apply(current, record);
    if (store) apply(bucket(pending, start), record);
  };

  const flush = (): Promise<void> => {
    if (!store || pending.size === 0) return flushing;
    const batch = pending;
    pending = new Map();
    // One flush at a time, in order.
    flushing = flushing.then(() => store.add(batch, spanMs + bucketMs).catch(() => undefined));
    return flushing;
  };
  const timer = store ? setInterval(() => void flush(), options.flushMs ?? 1_000) : undefined;
  (timer as { unref?: () => void } | undefined)?.unref?.();

  const starts = (sinceMs: number, toMs: number): number[] => {
    const from = Math.max(startOf(sinceMs), startOf(toMs) - spanMs + bucketMs);
    const list: number[] = [];
    for (let start = from; start <= toMs; start += bucketMs) list.push(start);
    return list;
  };

  const summary = (scope: Scope, list: readonly number[], toMs: number, sum: Tally): LiveWindow => ({
    scope,
    fromMs: list[0] ?? startOf(toMs),
    toMs,
    operations: operationsOf(sum),
    api2BreakerOpens: breakerOpensOf(sum, API2),
    api2BreakerState: api2Breaker,
    clients: clientsOf(sum),
  });

  return {
    scope: store ? 'fleet' : 'replica',
    bucketMs,
    spanMs,
    // At the instant the record names (the usage line's time too), not when it reaches the counters.
    recordRequest: (record) => count(tallyRequest, record, record.answeredAt),
    recordShadow: (record) => count(tallyShadow, record, Date.parse(record.time)),
    recordBreaker(upstream, to) {
      if (upstream === API2) api2Breaker = to;
      if (to === 'open') count(tallyBreakerOpen, upstream);
    },
    async window(sinceMs) {
      const toMs = now();
      const list = starts(sinceMs, toMs);
      if (store) {
        await flush();
        const read = await store.read(list).catch(() => null);
        if (read) {
          const sum: Tally = new Map();
          for (const fields of read) merge(sum, fields);
          return summary('fleet', list, toMs, sum);
        }
      }
      const sum: Tally = new Map();
      for (const start of list) {
        const tally = local.get(start);
        if (tally) merge(sum, tally);
      }
      return summary('replica', list, toMs, sum);
    },
    async close() {
      if (timer) clearInterval(timer);
      await flush();
    },
  };
}

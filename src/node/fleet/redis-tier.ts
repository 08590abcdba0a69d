/**
 * Node-only: the shared cache tier on Redis/Valkey (ioredis), behind src/cache/tier.ts.
 *
 * Keys (p = `<keyPrefix>v1:`; every name part is a sha256, so no credential and no raw key reaches Redis):
 *   p e:<h(key)>      entry: fence + head + body, PX = what is left of ttl + max(swr, stale-if-error)
 *   p gen             global generation; p gen:<h(group)> a group's (expire after GROUP_GENERATION_TTL_MS)
 *   p f:<h(fact)>     remembered facts (api key answered 200), PX = the fact's ttl
 *   p l:<h(flight)>   single-flight lock, value = a random token, PX = lockTtlMs
 *   p inval           pub/sub channel: `<instance> *` or `<instance> g:<group>`
 *
 * Invalidation (DECISION): keyspace generations, checked on every read of a page, L1 hits
 * included (one MGET per event-loop turn); a generation only moves forward, past Redis's clock, so
 * a write through any replica hides every older entry at once, even after a FLUSHALL; pub/sub drops
 * L1 copies at once and a resync covers messages lost while Redis was away. The whole rule and the
 * tests that hold it: docs/fleet.md, "How the shared tier works".
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { keepForMs } from '../../cache/freshness.js';
import { decodeEntry, encodeEntry } from '../../cache/tier-codec.js';
import { ListenerSet } from '../../cache/listener-set.js';
import { TierBreaker } from '../../cache/tier-breaker.js';
import type { CacheTier, LockOutcome, TierLease, TierRead } from '../../cache/tier.js';
import type { TierEntry } from '../../cache/types.js';
import { INVALIDATE_SCRIPT, LOCK_SCRIPT, RELEASE_SCRIPT, STORE_SCRIPT } from './redis-scripts.js';

/** DECISION: a group's generation lives a week past its last change; L2 entries never live longer. */
const GROUP_GENERATION_TTL_MS = 7 * 24 * 3600_000;

export interface RedisTierOptions {
  readonly client: Redis;
  readonly subscriber: Redis;
  readonly keyPrefix: string;
  readonly lockTtlMs: number;
  readonly maxEntryBytes: number;
  readonly breaker: TierBreaker;
  /** The bound on a write's wait for its invalidation (`commandTimeoutMs`). */
  readonly commandTimeoutMs: number;
  /** An invalidation Redis did not take in time (out, slow, failing): the write was answered anyway. */
  readonly onUnacknowledged?: (reason: string) => void;
}

type Scripted = Redis & {
  gwLock(lock: string, token: string, ttl: number): Promise<string | null>;
  gwRelease(lock: string, token: string): Promise<number>;
  gwStore(entry: string, value: Buffer, ttl: number, fence: string): Promise<number>;
  gwInvalidate(generation: string, channel: string, message: string, expireMs: number): Promise<string>;
};

type StampBatch = Map<string | null, Array<(stamp: string | undefined) => void>>;

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

export class RedisTier implements CacheTier {
  readonly lockTtlMs: number;
  private readonly redis: Scripted;
  private readonly p: string;
  private readonly instance = randomUUID();
  private readonly listeners = new ListenerSet<[group: string | null]>();
  /** Invalidations that could not reach Redis: replayed when it comes back. */
  private pendingAll = false;
  private readonly pendingGroups = new Set<string>();
  private readonly resyncListeners = new ListenerSet<[]>();
  /** The hits of this event-loop turn waiting for the current generations (sent at its end). */
  private stampBatch: StampBatch | undefined;
  private unacknowledgedCount = 0;

  constructor(private readonly options: RedisTierOptions) {
    this.lockTtlMs = options.lockTtlMs;
    this.p = `${options.keyPrefix}v1:`;
    const redis = options.client as Scripted;
    redis.defineCommand('gwLock', { numberOfKeys: 1, lua: LOCK_SCRIPT });
    redis.defineCommand('gwRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    redis.defineCommand('gwStore', { numberOfKeys: 1, lua: STORE_SCRIPT });
    redis.defineCommand('gwInvalidate', { numberOfKeys: 1, lua: INVALIDATE_SCRIPT });
    this.redis = redis;
    options.subscriber.on('message', (_channel: string, message: string) => this.onMessage(message));
    void options.subscriber.subscribe(`${this.p}inval`).catch(() => undefined);
  }

  get breaker(): TierBreaker {
    return this.options.breaker;
  }

  /** Invalidations answered without Redis taking them (since start). */
  get unacknowledged(): number {
    return this.unacknowledgedCount;
  }

  read(key: string, group: string | null, trustFact: string | null): Promise<TierRead | undefined> {
    const keys = [`${this.p}e:${sha(key)}`, `${this.p}gen`, group ? this.groupGen(group) : `${this.p}gen`];
    if (trustFact) keys.push(`${this.p}f:${sha(trustFact)}`);
    return this.breaker.run(async () => {
      const [bytes, gen, groupGen, fact] = await this.redis.mgetBuffer(...keys);
      const stamp = `${gen?.toString() ?? '0'}.${group && groupGen ? groupGen.toString() : '0'}`;
      const decoded = bytes ? decodeEntry(bytes) : undefined;
      const entry: TierEntry | undefined = decoded && decoded.stamp === stamp ? decoded.entry : undefined;
      return { entry, trusted: fact !== null && fact !== undefined, stamp };
    }, undefined);
  }

  write(key: string, _group: string | null, entry: TierEntry, stamp: string, lease: TierLease | undefined): void {
    const keepFor = Math.min(GROUP_GENERATION_TTL_MS, keepForMs(entry.policy, entry.storedAt, Date.now()));
    const bytes = encodeEntry(entry, stamp);
    if (keepFor <= 0 || bytes.byteLength > this.options.maxEntryBytes || stamp === '') return;
    const value = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    void this.breaker.run(() => this.redis.gwStore(`${this.p}e:${sha(key)}`, value, Math.ceil(keepFor), lease?.fence ?? ''), 0);
  }

  async lock(flightKey: string): Promise<LockOutcome> {
    const lockKey = `${this.p}l:${sha(flightKey)}`;
    const token = randomUUID();
    const fence = await this.breaker.run(() => this.redis.gwLock(lockKey, token, this.lockTtlMs), undefined);
    if (fence === undefined) return 'out';
    if (fence === null) return 'held';
    return { fence, release: () => void this.breaker.run(() => this.redis.gwRelease(lockKey, token), 0) };
  }

  locked(flightKey: string): Promise<boolean> {
    return this.breaker.run(async () => (await this.redis.exists(`${this.p}l:${sha(flightKey)}`)) === 1, false);
  }

  remember(fact: string, ttlMs: number): void {
    void this.breaker.run(() => this.redis.set(`${this.p}f:${sha(fact)}`, '1', 'PX', ttlMs), null);
  }

  invalidateAll(): Promise<boolean> {
    this.pendingAll = true;
    return this.invalidate(`${this.p}gen`, `${this.instance} *`, 0, () => (this.pendingAll = false));
  }

  invalidateGroup(group: string): Promise<boolean> {
    this.pendingGroups.add(group);
    return this.invalidate(this.groupGen(group), `${this.instance} g:${group}`, GROUP_GENERATION_TTL_MS, () => this.pendingGroups.delete(group));
  }

  onInvalidate(listener: (group: string | null) => void): () => void {
    return this.listeners.add(listener);
  }

  onResync(listener: () => void): () => void {
    return this.resyncListeners.add(listener);
  }

  /** Every hit of this event-loop turn shares one MGET, sent once the turn's arrivals are in (never one sent before a hit arrived). */
  readonly currentStamp = (group: string | null): Promise<string | undefined> | undefined => {
    if (this.breaker.state === 'down') return undefined;
    let batch = this.stampBatch;
    if (!batch) {
      const started: StampBatch = (batch = this.stampBatch = new Map());
      setImmediate(() => this.sendStamps(started));
    }
    let waiting = batch.get(group);
    if (!waiting) batch.set(group, (waiting = []));
    const joined = waiting;
    return new Promise((resolve) => joined.push(resolve));
  };

  /** Redis is back (or the subscriber reconnected): messages may have been missed meanwhile. */
  resync(): void {
    // Replayed first: the stamps compared next are read after them on the same connection.
    if (this.pendingAll) void this.invalidateAll();
    for (const group of [...this.pendingGroups]) void this.invalidateGroup(group);
    this.resyncListeners.emit();
  }

  private sendStamps(batch: StampBatch): void {
    this.stampBatch = undefined;
    const groups = [...batch.keys()];
    const keys = [`${this.p}gen`, ...groups.flatMap((group) => (group === null ? [] : [this.groupGen(group)]))];
    void this.breaker.run(() => this.redis.mget(...keys), undefined).then((values) => {
      let next = 1;
      for (const group of groups) {
        const groupGen = group === null ? null : values?.[next++];
        const stamp = values ? `${values[0] ?? '0'}.${groupGen ?? '0'}` : undefined;
        for (const resolve of batch.get(group) ?? []) resolve(stamp);
      }
    });
  }

  /** The generation moved and every replica told, or false (counted, logged) once the bound passed. */
  private invalidate(generation: string, message: string, expireMs: number, taken: () => void): Promise<boolean> {
    if (this.breaker.state === 'down') return Promise.resolve(this.notTaken('redis out'));
    return new Promise((resolve) => {
      let settled = false;
      const settle = (ok: boolean, reason: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(ok || this.notTaken(reason));
      };
      const timer = setTimeout(() => settle(false, `no answer within ${this.options.commandTimeoutMs} ms`), this.options.commandTimeoutMs);
      this.redis.gwInvalidate(generation, `${this.p}inval`, message, expireMs).then(
        () => {
          taken();
          settle(true, '');
        },
        (error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          this.breaker.trip(reason);
          settle(false, reason);
        },
      );
    });
  }

  private notTaken(reason: string): false {
    this.unacknowledgedCount += 1;
    this.options.onUnacknowledged?.(reason);
    return false;
  }

  private groupGen(group: string): string {
    return `${this.p}gen:${sha(group)}`;
  }

  private onMessage(message: string): void {
    const space = message.indexOf(' ');
    if (space < 0 || message.slice(0, space) === this.instance) return;
    const what = message.slice(space + 1);
    const group = what === '*' ? null : what.startsWith('g:') ? what.slice(2) : undefined;
    if (group === undefined) return;
    this.listeners.emit(group);
  }
}

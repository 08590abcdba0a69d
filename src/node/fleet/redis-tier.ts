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
 * Invalidation (DECISION): keyspace generations for L2, pub/sub for L1. An entry carries the
 * generations read before its upstream call, and is read in the same MGET as the current ones:
 * a write through any replica hides every older entry at once, exactly, even one stored after the
 * invalidation by a slow replica; no message can be lost for L2. L1 hits never ask Redis (the
 * bench budget), so L1 is dropped by pub/sub messages; messages missed while Redis or the
 * subscriber was away are covered by dropping the whole L1 when the tier comes back.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { decodeEntry, encodeEntry } from '../../cache/tier-codec.js';
import { TierBreaker } from '../../cache/tier-breaker.js';
import type { CacheTier, LockOutcome, TierEntry, TierLease, TierRead } from '../../cache/tier.js';
import { LOCK_SCRIPT, RELEASE_SCRIPT, STORE_SCRIPT } from './redis-scripts.js';

/** DECISION: a group's generation lives a week past its last change; L2 entries never live longer. */
const GROUP_GENERATION_TTL_MS = 7 * 24 * 3600_000;

export interface RedisTierOptions {
  readonly client: Redis;
  readonly subscriber: Redis;
  readonly keyPrefix: string;
  readonly lockTtlMs: number;
  readonly maxEntryBytes: number;
  readonly breaker: TierBreaker;
}

type Scripted = Redis & {
  gwLock(lock: string, token: string, ttl: number): Promise<string | null>;
  gwRelease(lock: string, token: string): Promise<number>;
  gwStore(entry: string, value: Buffer, ttl: number, fence: string): Promise<number>;
};

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

export class RedisTier implements CacheTier {
  readonly lockTtlMs: number;
  private readonly redis: Scripted;
  private readonly p: string;
  private readonly instance = randomUUID();
  private readonly listeners: Array<(group: string | null) => void> = [];
  /** Invalidations that could not reach Redis: replayed when it comes back. */
  private pendingAll = false;
  private readonly pendingGroups = new Set<string>();

  constructor(private readonly options: RedisTierOptions) {
    this.lockTtlMs = options.lockTtlMs;
    this.p = `${options.keyPrefix}v1:`;
    const redis = options.client as Scripted;
    redis.defineCommand('gwLock', { numberOfKeys: 1, lua: LOCK_SCRIPT });
    redis.defineCommand('gwRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    redis.defineCommand('gwStore', { numberOfKeys: 1, lua: STORE_SCRIPT });
    this.redis = redis;
    options.subscriber.on('message', (_channel: string, message: string) => this.onMessage(message));
    void options.subscriber.subscribe(`${this.p}inval`).catch(() => undefined);
  }

  get breaker(): TierBreaker {
    return this.options.breaker;
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
    const { policy } = entry;
    const keepFor = Math.min(GROUP_GENERATION_TTL_MS, policy.ttlMs + Math.max(policy.staleWhileRevalidateMs, policy.staleIfErrorMs) - (Date.now() - entry.storedAt));
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

  invalidateAll(): void {
    this.pendingAll = true;
    void this.breaker.run(async () => {
      await this.redis.multi().incr(`${this.p}gen`).publish(`${this.p}inval`, `${this.instance} *`).exec();
      this.pendingAll = false;
    }, undefined);
  }

  invalidateGroup(group: string): void {
    this.pendingGroups.add(group);
    const gen = this.groupGen(group);
    void this.breaker.run(async () => {
      await this.redis.multi().incr(gen).pexpire(gen, GROUP_GENERATION_TTL_MS).publish(`${this.p}inval`, `${this.instance} g:${group}`).exec();
      this.pendingGroups.delete(group);
    }, undefined);
  }

  onInvalidate(listener: (group: string | null) => void): void {
    this.listeners.push(listener);
  }

  /** Redis is back (or the subscriber reconnected): messages may have been missed meanwhile. */
  resync(): void {
    for (const listener of this.listeners) listener(null);
    if (this.pendingAll) this.invalidateAll();
    for (const group of [...this.pendingGroups]) this.invalidateGroup(group);
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
    for (const listener of this.listeners) listener(group);
  }
}

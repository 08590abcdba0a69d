/**
 * The shared cache tier on the edge: the Workers Cache API (`caches.default`), behind the same
 * CacheTier port as Redis on Node, so every isolate of a data centre shares the search pages,
 * the trust facts and the invalidations (enabled by `cache.edgeCacheApi`).
 *
 * What the Cache API cannot do, and so is not done here (DECISIONS):
 * - no atomic lock: `lock()` answers 'out', each isolate single-flights for itself;
 * - no fencing: the last write wins;
 * - no pub/sub: a write drops the L1 of the isolate that saw it and hides older L2 entries of
 *   its data centre at once (generations, as on Redis); other isolates' L1 pages stay until their TTL;
 * - per data centre, and a no-op on workers.dev hosts (the platform's rule): a cache, never state
 *   an answer depends on.
 * Every call resolves; a failing cache reads as empty.
 */
import { keepForMs } from '../cache/freshness.js';
import { decodeEntry, encodeEntry, fenceText } from '../cache/tier-codec.js';
import { ListenerSet } from '../cache/listener-set.js';
import type { CacheTier, LockOutcome, TierRead } from '../cache/tier.js';
import type { TierEntry } from '../cache/types.js';

/** The part of the Workers Cache the tier uses. */
export interface EdgeCache {
  match(request: string): Promise<Response | undefined>;
  put(request: string, response: Response): Promise<void>;
}

/** DECISION: generations and entries live at most a week, as on Redis. */
const MAX_AGE_S = 7 * 24 * 3600;
const ORIGIN = 'https://recipe-gateway.cache-tier.internal/v1/';

async function sha(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export class CacheApiTier implements CacheTier {
  readonly lockTtlMs = 0;
  private readonly listeners = new ListenerSet<[group: string | null]>();
  /** Writes still running: the Worker hands them to `ctx.waitUntil`, or workerd cuts them with the answer. */
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly cache: EdgeCache) {}

  async read(key: string, group: string | null, trustFact: string | null): Promise<TierRead | undefined> {
    try {
      const [entry, gen, groupGen, fact] = await Promise.all([
        this.get(`e/${await sha(key)}`),
        this.get('gen'),
        group ? this.get(`gen/${await sha(group)}`) : undefined,
        trustFact ? this.get(`f/${await sha(trustFact)}`) : undefined,
      ]);
      const stamp = `${gen ? await gen.text() : '0'}.${groupGen ? await groupGen.text() : '0'}`;
      const decoded = entry ? decodeEntry(new Uint8Array(await entry.arrayBuffer())) : undefined;
      return { entry: decoded && decoded.stamp === stamp ? decoded.entry : undefined, trusted: fact !== undefined, stamp };
    } catch {
      return undefined;
    }
  }

  write(key: string, _group: string | null, entry: TierEntry, stamp: string): void {
    const keepFor = keepForMs(entry.policy, entry.storedAt, Date.now());
    if (keepFor < 1000 || stamp === '') return;
    const head = new TextEncoder().encode(fenceText(0));
    const body = encodeEntry(entry, stamp);
    const bytes = new Uint8Array(head.byteLength + body.byteLength);
    bytes.set(head, 0);
    bytes.set(body, head.byteLength);
    this.track(sha(key).then((hash) => this.set(`e/${hash}`, bytes, Math.min(MAX_AGE_S, Math.floor(keepFor / 1000)))));
  }

  lock(): Promise<LockOutcome> {
    return Promise.resolve('out');
  }

  locked(): Promise<boolean> {
    return Promise.resolve(false);
  }

  remember(fact: string, ttlMs: number): void {
    this.track(sha(fact).then((hash) => this.set(`f/${hash}`, '1', Math.max(1, Math.floor(ttlMs / 1000)))));
  }

  /** Resolves once the data centre's cache holds the new generation (a refused put reads as done: the cache is then without it). */
  invalidateAll(): Promise<boolean> {
    return this.track(this.set('gen', newGeneration(), MAX_AGE_S)).then(() => true);
  }

  invalidateGroup(group: string): Promise<boolean> {
    return this.track(sha(group).then((hash) => this.set(`gen/${hash}`, newGeneration(), MAX_AGE_S))).then(() => true);
  }

  onInvalidate(listener: (group: string | null) => void): () => void {
    return this.listeners.add(listener);
  }

  /** Resolves when every write started so far is done (for `ctx.waitUntil`). */
  settled(): Promise<void> | undefined {
    return this.pending.size === 0 ? undefined : Promise.all([...this.pending]).then(() => undefined);
  }

  private track(write: Promise<void>): Promise<void> {
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
    return write;
  }

  private async get(path: string): Promise<Response | undefined> {
    return this.cache.match(`${ORIGIN}${path}`);
  }

  private async set(path: string, body: Uint8Array | string, maxAgeS: number): Promise<void> {
    try {
      await this.cache.put(`${ORIGIN}${path}`, new Response(body as BodyInit, { headers: { 'cache-control': `max-age=${maxAgeS}` } }));
    } catch {
      /* a cache that refuses a write is a cache without that entry */
    }
  }
}

/** A generation no earlier one can equal (a time and a random part). */
function newGeneration(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

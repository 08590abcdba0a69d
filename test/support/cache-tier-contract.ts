/**
 * The promises of the shared cache tier port (src/cache/tier.ts), stated once; every tier runs
 * them: `describeCacheTierContract(name, capabilities, start)`. What a tier legitimately does not
 * do is a declared capability, and the contract checks the declared behaviour instead (the null
 * tier stores nothing: a write is then never read back). See docs/architecture.md, "Ports".
 */
import { describe, expect, it } from 'vitest';
import type { CacheTier, TierRead } from '../../src/cache/tier.js';
import type { TierEntry } from '../../src/cache/types.js';
import { closedAfterEachTest } from './cleanup.js';
import { waitFor } from './wait.js';

export interface TierCapabilities {
  /** Keeps pages for every replica (false: a write is never read back, e.g. the null tier). */
  readonly storesPages: boolean;
  /** Remembers trust facts for every replica until their ttl passes (false: a read is never trusted). */
  readonly remembersFacts: boolean;
  /** One lock per flight across replicas, fenced, expiring after lockTtlMs (false: lock answers 'out'). */
  readonly locks: boolean;
  /** How another replica's onInvalidate hears an invalidation: before it resolves, soon after, or never (no channel). */
  readonly tellsReplicas: 'before-resolving' | 'soon-after' | 'never';
  /** Answers read and lock in the tick they are asked (no I/O: the null tier). */
  readonly answersAtOnce: boolean;
  /** Offers currentStamp (the stamp a read of a group would carry now). */
  readonly currentStamp: boolean;
  /** What an invalidation through the tier when it is out resolves to (true: an out tier holds nothing to hide); 'never out': no store to lose (no I/O). */
  readonly invalidationWhenOut: boolean | 'never out';
}

/** Two replicas of one fleet over one store, and a replica whose store is out (down, failing, no primary) unless it is 'never out'. */
export interface TierFleet {
  readonly a: CacheTier;
  readonly b: CacheTier;
  readonly out: CacheTier | undefined;
  close(): Promise<void>;
}

const POLICY = { ttlMs: 60_000, staleWhileRevalidateMs: 10_000, staleIfErrorMs: 30_000 };
let unique = 0;
const fresh = (what: string) => `${what}-${Date.now()}-${++unique}`;

/** A page with every byte value in its body. */
export function page(marker: number, policy = POLICY, storedAt = Date.now()): TierEntry {
  const body = Uint8Array.from({ length: 300 }, (_, i) => (i + marker) % 256);
  return { answer: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', etag: `"${marker}"` }, setCookie: [], body }, storedAt, policy };
}

/** Writes with the stamp of a read just before, as a fill does, then reads through the writer (a replica's reads follow its writes). */
async function fill(tier: CacheTier, key: string, group: string | null, entry: TierEntry): Promise<void> {
  const before = await tier.read(key, group, null);
  tier.write(key, group, entry, before?.stamp ?? '', undefined);
  await tier.read(key, group, null);
}

const entryOf = async (tier: CacheTier, key: string, group: string | null): Promise<TierEntry | undefined> => (await tier.read(key, group, null))?.entry;

function expectSame(found: TierEntry | undefined, entry: TierEntry): void {
  expect(found, 'the page written').toBeDefined();
  expect({ status: found?.answer.status, headers: found?.answer.headers, storedAt: found?.storedAt, policy: found?.policy }).toEqual({ status: 200, headers: entry.answer.headers, storedAt: entry.storedAt, policy: entry.policy });
  expect(Buffer.from(found?.answer.body ?? []).equals(Buffer.from(entry.answer.body)), 'body byte for byte').toBe(true);
}

export function describeCacheTierContract(name: string, can: TierCapabilities, start: () => Promise<TierFleet>): void {
  describe(`${name} keeps the cache tier contract`, () => {
    const cleanup = closedAfterEachTest();
    const fleet = async (): Promise<TierFleet> => {
      const started = await start();
      cleanup.push(() => started.close());
      return started;
    };

    it(can.storesPages ? 'a page written with the stamp of its read is read back byte for byte by every replica' : 'stores no page: a write is never read back (declared)', async () => {
      const { a, b } = await fleet();
      const key = fresh('page');
      if (can.answersAtOnce) {
        expect(a.read(key, null, null)).not.toBeInstanceOf(Promise);
        expect(a.lock(key)).not.toBeInstanceOf(Promise);
      }
      const entry = page(1);
      await fill(a, key, 'g', entry);
      for (const replica of [a, b]) {
        if (can.storesPages) expectSame(await entryOf(replica, key, 'g'), entry);
        else expect(await entryOf(replica, key, 'g')).toBeUndefined();
      }
      const expired = fresh('expired');
      await fill(a, expired, null, page(2, POLICY, Date.now() - 41_000 - 60_000));
      expect(await entryOf(a, expired, null), 'a page past every freshness rule is not kept').toBeUndefined();
    });

    it('an invalidation resolves true once every replica reads without the pages it dropped; other groups stay', async () => {
      const { a, b } = await fleet();
      const [mine, theirs, ungrouped] = [fresh('mine'), fresh('theirs'), fresh('ungrouped')];
      await fill(a, mine, 'user:1', page(1));
      await fill(a, theirs, 'user:2', page(2));
      await fill(a, ungrouped, null, page(3));
      expect(await b.invalidateGroup('user:1')).toBe(true);
      expect(await entryOf(a, mine, 'user:1')).toBeUndefined();
      expect(await entryOf(a, theirs, 'user:2')).toEqual(can.storesPages ? expect.anything() : undefined);
      expect(await entryOf(a, ungrouped, null)).toEqual(can.storesPages ? expect.anything() : undefined);
      expect(await b.invalidateAll()).toBe(true);
      expect(await entryOf(a, theirs, 'user:2')).toBeUndefined();
      expect(await entryOf(a, ungrouped, null)).toBeUndefined();
    });

    it('a page produced before an invalidation is never read after it; one produced after is', async () => {
      const { a, b } = await fleet();
      const key = fresh('late');
      for (const invalidate of [() => b.invalidateGroup('user:3'), () => b.invalidateAll()]) {
        const before = await a.read(key, 'user:3', null);
        expect(await invalidate()).toBe(true);
        a.write(key, 'user:3', page(4), before?.stamp ?? '', undefined);
        expect(await entryOf(a, key, 'user:3'), 'the late write of an older fill').toBeUndefined();
      }
      await fill(a, key, 'user:3', page(5));
      expect(await entryOf(b, key, 'user:3')).toEqual(can.storesPages ? expect.anything() : undefined);
    });

    it(can.remembersFacts ? 'a remembered fact is known to every replica until its ttl passes, and only when asked' : 'remembers no fact: no read is trusted (declared)', async () => {
      const { a, b } = await fleet();
      const [fact, key] = [fresh('api key 200'), fresh('short')];
      a.remember(fact, 1_500);
      await fill(a, key, null, page(6, { ttlMs: 1_500, staleWhileRevalidateMs: 0, staleIfErrorMs: 0 }));
      const trusted = async (replica: CacheTier, asked: string | null) => (await replica.read(key, null, asked))?.trusted === true;
      expect(await trusted(a, fact)).toBe(can.remembersFacts);
      expect(await trusted(b, fact)).toBe(can.remembersFacts);
      expect(await trusted(b, null), 'not asked').toBe(false);
      expect(await trusted(b, fresh('never remembered'))).toBe(false);
      if (can.remembersFacts || can.storesPages) await new Promise((resolve) => setTimeout(resolve, 2_200));
      expect(await trusted(b, fact), 'past its ttl').toBe(false);
      expect(await entryOf(b, key, null), 'a page past its freshness').toBeUndefined();
    });

    it(can.locks ? 'one lock per flight across replicas: fenced in order, released, expiring after lockTtlMs' : 'grants no lock: each replica single-flights for itself (declared)', async () => {
      const { a, b } = await fleet();
      const flight = fresh('flight');
      if (!can.locks) {
        expect([await a.lock(flight), await b.lock(flight), await b.locked(flight), a.lockTtlMs]).toEqual(['out', 'out', false, 0]);
        return;
      }
      const first = await a.lock(flight);
      if (typeof first !== 'object') throw new Error(`expected a lease, got ${first}`);
      expect(first.fence).toMatch(/^\d{16}$/);
      expect([await b.lock(flight), await b.locked(flight)]).toEqual(['held', true]);
      expect(typeof (await b.lock(fresh('other flight')))).toBe('object');
      first.release();
      await waitFor(async () => !(await b.locked(flight)), 2_000, 'the released lock gone');
      const second = await b.lock(flight);
      if (typeof second !== 'object') throw new Error(`expected a lease, got ${second}`);
      expect(second.fence > first.fence, 'fences grow').toBe(true);
      const key = fresh('fenced');
      const stamp = (await a.read(key, null, null))?.stamp ?? '';
      a.write(key, null, page(7), stamp, second);
      a.write(key, null, page(8), stamp, first);
      expect((await entryOf(b, key, null))?.answer.headers.etag, 'a write with an older fence than the stored one is refused').toBe('"7"');
      await new Promise((resolve) => setTimeout(resolve, a.lockTtlMs + 300));
      expect(await a.locked(flight), 'a lock nobody released is gone after lockTtlMs').toBe(false);
    });

    it(`tells another replica's onInvalidate ${can.tellsReplicas} (the group, or null for all), until detached`, async () => {
      const { a, b } = await fleet();
      const heard: Array<string | null> = [];
      const detach = b.onInvalidate((group) => heard.push(group));
      const later: Array<string | null> = [];
      b.onInvalidate((group) => later.push(group));
      await b.read(fresh('listening'), null, null); // the listeners are attached
      const told = async (count: number) => {
        if (can.tellsReplicas === 'soon-after') await waitFor(() => later.length >= count, 5_000, `${count} invalidations heard`);
        if (can.tellsReplicas === 'never') await b.read(fresh('after'), null, null); // anything on its way has arrived
        expect(later).toHaveLength(can.tellsReplicas === 'never' ? 0 : count);
      };
      expect(await a.invalidateGroup('user:4')).toBe(true);
      await told(1);
      expect(await a.invalidateAll()).toBe(true);
      await told(2);
      if (can.tellsReplicas === 'never') expect(heard).toEqual([]);
      else {
        expect(['user:4', null]).toContain(heard[0]);
        expect(heard.slice(1)).toEqual([null]);
      }
      detach();
      expect(await a.invalidateAll()).toBe(true);
      await told(3);
      expect(heard.length, 'nothing heard after the detach').toBe(can.tellsReplicas === 'never' ? 0 : 2);
    });

    it(can.currentStamp ? "currentStamp is the stamp a read of the group carries now, and moves with an invalidation" : 'offers no currentStamp: L1 copies are not checked against it (declared)', async () => {
      const { a, b } = await fleet();
      if (!can.currentStamp) return expect(a.currentStamp).toBeUndefined();
      const current = async (group: string | null) => [await a.currentStamp?.(group), (await a.read(fresh('stamp'), group, null))?.stamp];
      const [stamp, read] = await current('user:5');
      expect(stamp).toBe(read);
      expect(await b.invalidateGroup('user:5')).toBe(true);
      const [moved, readAfter] = await current('user:5');
      expect([moved === stamp, moved]).toEqual([false, readAfter]);
    });

    const outTitle = can.invalidationWhenOut === 'never out' ? 'is never out: it has no store to lose and answers at once (declared)' : `out, every call still answers and never rejects: nothing read, no lock, invalidations resolve ${can.invalidationWhenOut}`;
    it(outTitle, async () => {
      const { a, out } = await fleet();
      const key = fresh('out');
      if (can.invalidationWhenOut === 'never out' || !out) {
        expect([can.invalidationWhenOut, can.answersAtOnce, a.read(key, null, null) instanceof Promise]).toEqual(['never out', true, false]);
        return;
      }
      out.write(key, null, page(9), '', undefined);
      out.remember(key, 60_000);
      const read: TierRead | undefined = await out.read(key, null, key);
      expect([read?.entry, read?.trusted ?? false]).toEqual([undefined, false]);
      expect([await out.lock(key), await out.locked(key)]).toEqual(['out', false]);
      expect([await out.invalidateAll(), await out.invalidateGroup('user:6')]).toEqual([can.invalidationWhenOut, can.invalidationWhenOut]);
    });
  });
}

/**
 * The cache tier contract's promises about pages and facts (cache-tier-contract.ts runs them):
 * what a replica writes every replica reads back byte for byte, invalidations hide older pages,
 * facts and pages are not kept past their time. A tier that stores none declares it.
 */
import { expect, it } from 'vitest';
import type { CacheTier } from '../../src/cache/tier.js';
import type { TierEntry } from '../../src/cache/types.js';
import type { TierCapabilities, TierFleet } from './cache-tier-capabilities.js';

const POLICY = { ttlMs: 60_000, staleWhileRevalidateMs: 10_000, staleIfErrorMs: 30_000 };
let unique = 0;
export const fresh = (what: string) => `${what}-${Date.now()}-${++unique}`;

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

export const entryOf = async (tier: CacheTier, key: string, group: string | null): Promise<TierEntry | undefined> => (await tier.read(key, group, null))?.entry;

function expectSame(found: TierEntry | undefined, entry: TierEntry): void {
  expect(found, 'the page written').toBeDefined();
  expect({ status: found?.answer.status, headers: found?.answer.headers, storedAt: found?.storedAt, policy: found?.policy }).toEqual({ status: 200, headers: entry.answer.headers, storedAt: entry.storedAt, policy: entry.policy });
  expect(Buffer.from(found?.answer.body ?? []).equals(Buffer.from(entry.answer.body)), 'body byte for byte').toBe(true);
}

export function pagePromises(can: TierCapabilities, fleet: () => Promise<TierFleet>): void {
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
    a.remember(fact, 2_500);
    await fill(a, key, null, page(6, { ttlMs: 2_500, staleWhileRevalidateMs: 0, staleIfErrorMs: 0 }));
    const trusted = async (replica: CacheTier, asked: string | null) => (await replica.read(key, null, asked))?.trusted === true;
    expect(await trusted(a, fact)).toBe(can.remembersFacts);
    expect(await trusted(b, fact)).toBe(can.remembersFacts);
    expect(await trusted(b, null), 'not asked').toBe(false);
    expect(await trusted(b, fresh('never remembered'))).toBe(false);
    if (can.remembersFacts || can.storesPages) await new Promise((resolve) => setTimeout(resolve, 3_200));
    expect(await trusted(b, fact), 'past its ttl').toBe(false);
    expect(await entryOf(b, key, null), 'a page past its freshness').toBeUndefined();
  });
}

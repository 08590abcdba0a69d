/**
 * The cache tier contract's promises between replicas (cache-tier-contract.ts runs them): locks,
 * invalidations told to the other replicas, currentStamp, and a tier that is out. What a tier does
 * not do is declared (no lock, no channel, never out) and checked as declared.
 */
import { expect, it } from 'vitest';
import type { TierRead } from '../../src/cache/tier.js';
import type { TierCapabilities, TierFleet } from './cache-tier-capabilities.js';
import { entryOf, fresh, page } from './cache-tier-contract-pages.js';
import { waitFor } from './wait.js';

export function replicaPromises(can: TierCapabilities, fleet: () => Promise<TierFleet>): void {
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
}

/**
 * The sandbox stores remember a public search's matches per filters (the demo repeats its searches;
 * the recipes never change once loaded). A search after another that differs in any one filter
 * answers as a fresh store does: no remembered matches are shared across filters.
 */
import { expect, it } from 'vitest';
import { Api2Store } from '../src/sandbox/api2-store.js';
import type { Api2SearchQuery } from '../src/sandbox/api2-input.js';
import { LegacyStore } from '../src/sandbox/legacy-store.js';
import type { SearchQuery } from '../src/sandbox/legacy-store.js';

const BASE = { anyKw: 'a', perPage: 50 } as const;
/** Each filter changed alone from BASE, each to a value that finds another set of recipes than BASE. */
const CHANGED: ReadonlyArray<Partial<SearchQuery & Api2SearchQuery>> = [
  { titleKw: 'chicken' },
  { anyKw: 'garlic' },
  { cuisine: 'italian' },
  { photos: true },
  { includeIng: ['salt'] },
  { excludeIng: ['salt'] },
];

it('legacy: a search differing from the last in one filter answers as a fresh store does', () => {
  const store = new LegacyStore();
  const base = store.search(BASE, null);
  for (const change of [...CHANGED, { category: 'dessert' as const }]) {
    const query = { ...BASE, ...change };
    const fresh = new LegacyStore().search(query, null);
    expect(fresh.ResultCount, JSON.stringify(change)).not.toBe(base.ResultCount);
    expect(store.search(query, null), JSON.stringify(change)).toEqual(fresh);
    expect(store.search(BASE, null)).toEqual(base);
  }
});

it('api2: a search differing from the last in one filter answers as a fresh store does', () => {
  const store = new Api2Store();
  const query = (change: object): Api2SearchQuery => ({ ...BASE, page: 1, ...change });
  const base = store.search(query({}), null);
  for (const change of [...CHANGED, { categories: ['dessert' as const] }]) {
    const fresh = new Api2Store().search(query(change), null);
    expect(fresh.ok && base.ok && fresh.value.ResultCount !== base.value.ResultCount, JSON.stringify(change)).toBe(true);
    expect(store.search(query(change), null), JSON.stringify(change)).toEqual(fresh);
    expect(store.search(query({}), null)).toEqual(base);
  }
});

/**
 * The guide's most frequent requests per client and operation (src/report/guide/top-requests.ts,
 * Space-Saving with 8 counters) hold what its comment promises, on seeded random streams: exact
 * counts and ranking while at most 8 distinct requests were sent; beyond, every request sent more
 * than n / 8 times of n is kept, and the one sent most ranks first when it leads the next by more
 * than n / 8 (a kept count is over its true count by at most n / 8).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOP_REQUESTS_KEPT, TopRequests } from '../src/report/guide/top-requests.js';

const stream = (distinct: number) => fc.array(fc.integer({ min: 0, max: distinct - 1 }).map((i) => `title_kw=k${i}`), { minLength: 1, maxLength: 400 });

function counted(requests: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

describe('the top requests of one client and operation', () => {
  it('are exact while at most 8 distinct requests were sent', () => {
    fc.assert(
      fc.property(stream(TOP_REQUESTS_KEPT), (requests) => {
        const top = new TopRequests();
        for (const r of requests) top.add(r);
        const truth = [...counted(requests)].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([r]) => r);
        expect(top.ranked()).toEqual(truth);
      }),
      { seed: 46, numRuns: 300 },
    );
  });

  it('keep every request sent more than n / 8 times, the most sent first when it leads by more than n / 8', () => {
    fc.assert(
      fc.property(stream(40), fc.integer({ min: 0, max: 39 }), fc.integer({ min: 0, max: 300 }), (noise, heavy, extra) => {
        const requests = [...noise];
        // One request sent often, spread through the stream.
        for (let i = 0; i < extra; i++) requests.splice((i * 7919) % (requests.length + 1), 0, `title_kw=k${heavy}`);
        const top = new TopRequests();
        for (const r of requests) top.add(r);
        const n = requests.length;
        const truth = counted(requests);
        const ranked = top.ranked();
        for (const [request, count] of truth) if (count > n / TOP_REQUESTS_KEPT) expect(ranked, request).toContain(request);
        const [most, mostCount] = [...truth].sort((a, b) => b[1] - a[1])[0]!;
        const runnerUp = [...truth].filter(([r]) => r !== most).reduce((max, [, c]) => Math.max(max, c), 0);
        // Space-Saving orders by its over-counts: the heaviest is first when its lead is beyond the error bound.
        if (mostCount - runnerUp > n / TOP_REQUESTS_KEPT) expect(ranked[0]).toBe(most);
        expect(ranked.length).toBeLessThanOrEqual(TOP_REQUESTS_KEPT);
      }),
      { seed: 47, numRuns: 300 },
    );
  });
});

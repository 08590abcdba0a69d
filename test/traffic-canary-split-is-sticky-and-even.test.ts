import { describe, expect, it } from 'vitest';
import { canaryBucket, canaryChoosesApi2 } from '../src/traffic/canary.js';

const clients = Array.from({ length: 10_000 }, (_, i) => ({ apiKey: `partner-key-${i.toString(36)}-${(i * 7919) % 1000}`, user: i % 3 === 0 ? null : `user${i}` }));

describe('canary split', () => {
  it.each([1, 5, 10, 25, 50, 90])('sends %i percent of 10,000 simulated clients to api2, within 2 points', (percent) => {
    const toApi2 = clients.filter((c) => canaryChoosesApi2(percent, c.apiKey, c.user)).length;
    expect(Math.abs(toApi2 / clients.length - percent / 100)).toBeLessThanOrEqual(0.02);
  });

  it('is sticky: the same client always lands on the same side, and 0 and 100 percent are exact', () => {
    for (const c of clients.slice(0, 500)) {
      expect(canaryChoosesApi2(30, c.apiKey, c.user)).toBe(canaryChoosesApi2(30, c.apiKey, c.user));
      expect(canaryChoosesApi2(0, c.apiKey, c.user)).toBe(false);
      expect(canaryChoosesApi2(100, c.apiKey, c.user)).toBe(true);
    }
  });

  it('grows monotonically: a client in the 10 percent canary stays in at 20 percent', () => {
    for (const c of clients) {
      if (canaryChoosesApi2(10, c.apiKey, c.user)) expect(canaryChoosesApi2(20, c.apiKey, c.user)).toBe(true);
    }
  });

  it('depends on the user as well as the key', () => {
    const buckets = new Set(['alice', 'bob', 'carol', 'dave', 'erin'].map((u) => canaryBucket('one-key', u)));
    expect(buckets.size).toBeGreaterThan(1);
  });
});

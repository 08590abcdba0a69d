/**
 * The sandbox's client population (src/dataset/dataset.ts): forty numbered api keys (five paid)
 * and forty numbered users beside the named ones, accepted by both sandbox interfaces, with data
 * of their own, generated the same at every build; enough clients that a 10 % canary step sends
 * some of them, not none or one, to api2.
 */
import { describe, expect, it } from 'vitest';
import { buildDataset, planOfKey, sandboxClientKey, sandboxClientLogin, sandboxLogin, SANDBOX_CLIENT_COUNT } from '../src/sandbox/dataset/dataset.js';
import { LegacyStore } from '../src/sandbox/legacy-store.js';
import { Api2Store } from '../src/sandbox/api2-store.js';
import { canaryChoosesApi2 } from '../src/traffic/canary.js';

const numbers = Array.from({ length: SANDBOX_CLIENT_COUNT }, (_, i) => i + 1);

describe('the numbered sandbox clients', () => {
  it('are forty api keys, five of them on the paid plan, and nothing past the pattern', () => {
    expect(numbers.map(sandboxClientKey)).toContain('sandbox-key-40');
    const plans = numbers.map((n) => planOfKey(sandboxClientKey(n)));
    expect(plans.filter((plan) => plan === 'paid')).toHaveLength(5);
    expect(plans.filter((plan) => plan === 'free')).toHaveLength(35);
    for (const key of ['sandbox-key-00', 'sandbox-key-41', 'sandbox-key-7', 'sandbox-key-07x', 'Sandbox-key-07']) expect(planOfKey(key), key).toBeNull();
    expect(planOfKey('sandbox-free-key')).toBe('free');
    expect(planOfKey('sandbox-paid-key')).toBe('paid');
  });

  it('are forty users both interfaces accept with their own password only', () => {
    const legacy = new LegacyStore();
    const api2 = new Api2Store();
    for (const n of numbers) {
      const login = sandboxClientLogin(n);
      expect(legacy.authenticate(login.user, login.password)?.userId).toBe(login.userId);
      expect(api2.authenticate(login.user.toUpperCase(), login.password)?.userName).toBe(login.user);
      expect(legacy.authenticate(login.user, 'alice-pass')).toBeNull();
    }
    expect(sandboxLogin('user41')).toBeUndefined();
    expect(legacy.authenticate('alice', 'alice-pass')?.userId).toBe(1001);
  });

  it('have lists of their own, and the dataset is the same at every build', () => {
    const dataset = buildDataset();
    const ids = new Set(numbers.map((n) => sandboxClientLogin(n).userId));
    const owners = new Set(dataset.groceryItems.filter((item) => ids.has(item.userId)).map((item) => item.userId));
    expect(owners.size).toBeGreaterThan(20);
    expect(new Set(dataset.favorites.filter((entry) => ids.has(entry.userId)).map((entry) => entry.userId)).size).toBeGreaterThan(20);
    expect(new Set(dataset.groceryItems.map((item) => item.id)).size).toBe(dataset.groceryItems.length);
    expect(buildDataset()).toEqual(dataset);
  });

  it('spread over a canary split: at 10 % several key and user pairs go to api2, at 1 % at least one', () => {
    const pairs = numbers.flatMap((n) => [[sandboxClientKey(n), null] as const, [sandboxClientKey(n), sandboxClientLogin(n).user] as const]);
    const at = (percent: number): number => pairs.filter(([key, user]) => canaryChoosesApi2(percent, key, user)).length;
    expect(at(10)).toBeGreaterThanOrEqual(4);
    expect(at(1)).toBeGreaterThanOrEqual(1);
    expect(at(50)).toBeGreaterThan(25);
  });
});

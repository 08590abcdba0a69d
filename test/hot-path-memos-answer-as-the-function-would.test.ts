/**
 * The memo tables of src/hot-path.ts (`remembered`, `rememberedPer`) answer exactly what the
 * function would, past their bound too, and per owner; their users (a parameter rule's check, a
 * stored page's served headers) answer as without them.
 */
import { describe, expect, it } from 'vitest';
import { remembered, rememberedPer } from '../src/hot-path.js';
import { checkRaw, page, positiveId } from '../src/legacy/param-rules.js';
import { fromStored } from '../src/pipeline/stored-answer.js';
import type { StoredAnswer } from '../src/cache/types.js';

describe('remembered', () => {
  it('answers as the function does, asks it once per key until full, and again after it forgot', () => {
    const asked: number[] = [];
    const square = remembered(3, (n: number) => (asked.push(n), n * n));
    const keys = [1, 2, 1, 3, 2, 4, 5, 1, 6, 6];
    expect(keys.map(square)).toEqual(keys.map((n) => n * n));
    // Full at 3: 4 forgets 1, 2, 3 at once; 1 is asked again.
    expect(asked).toEqual([1, 2, 3, 4, 5, 1, 6]);
  });

  it('keeps each owner apart', () => {
    const ownerA = { factor: 2 };
    const ownerB = { factor: 3 };
    const times = rememberedPer(2, (owner: { factor: number }, n: number) => owner.factor * n);
    expect([times(ownerA, 5), times(ownerB, 5), times(ownerA, 5), times(ownerB, 7), times(ownerB, 5)]).toEqual([10, 15, 10, 21, 15]);
  });
});

describe('the memos in use', () => {
  it('a parameter check answers as the rule, remembered or not (texts over 64 characters are not)', () => {
    for (const raw of ['1', '1', '0', '100000', '100001', 'x', '9'.repeat(65), '9'.repeat(65)]) {
      const parsed = page.schema.safeParse(raw);
      expect(checkRaw(page, raw), raw).toEqual(parsed.success ? { ok: true, value: parsed.data } : { ok: false });
    }
    expect(checkRaw(positiveId, '7')).toEqual({ ok: true, value: 7 });
    expect(checkRaw(page, '7')).toEqual({ ok: true, value: 7 });
  });

  it('a stored page served as HIT and as STALE carries each its own X-Cache, with its length', () => {
    const stored: StoredAnswer = { status: 200, headers: { 'content-type': 'application/json' }, setCookie: [], body: new TextEncoder().encode('{"a":1}') };
    const conditions = { ifNoneMatch: undefined, ifModifiedSince: undefined };
    const outcomes = ['HIT', 'STALE', 'HIT', 'MISS', 'BYPASS', 'STALE'] as const;
    for (const outcome of outcomes) {
      expect(fromStored(stored, outcome, conditions).headers).toEqual({ 'content-type': 'application/json', 'x-cache': outcome, 'content-length': '7' });
    }
  });
});

/**
 * The record's id, a request id the client did not give, and trace and span ids are cut from
 * batches of random text (src/hot-path.ts `randomUuid`, `randomHexDigits`): each is a version 4
 * UUID or hex digits of the length asked, across batch refills, and none repeats.
 */
import { describe, expect, it } from 'vitest';
import { randomHexDigits, randomUuid } from '../src/hot-path.js';
import { requestIdFrom } from '../src/request/request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('pooled random ids', () => {
  it('are version 4 UUIDs, across several batches, none repeated', () => {
    const drawn = Array.from({ length: 1_000 }, () => randomUuid());
    for (const uuid of drawn) expect(uuid).toMatch(UUID_V4);
    expect(new Set(drawn).size).toBe(drawn.length);
    // Every variant nibble and every digit of the random part shows up: the bytes are used, not a constant.
    expect(new Set(drawn.map((uuid) => uuid[19])).size).toBe(4);
    expect(new Set(drawn.map((uuid) => uuid[0])).size).toBe(16);
  });

  it('give a request without an acceptable X-Request-Id a UUID of its own', () => {
    const ids = [requestIdFrom(undefined), requestIdFrom('has space'), requestIdFrom(undefined)];
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(3);
  });

  it('are hex digits of the length asked, across batch refills, none repeated', () => {
    const drawn = Array.from({ length: 3_000 }, (_, index) => randomHexDigits(index % 2 === 0 ? 16 : 8));
    drawn.forEach((hex, index) => expect(hex).toMatch(index % 2 === 0 ? /^[0-9a-f]{32}$/ : /^[0-9a-f]{16}$/));
    expect(new Set(drawn).size).toBe(drawn.length);
    expect(new Set(drawn.join('')).size).toBe(16);
  });
});

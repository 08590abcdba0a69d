/**
 * The bytes of a tier entry: a fixed-width fence (16 decimal digits, put in front by the store, so
 * a store script can compare fences without decoding), one JSON line (stamp, time, policy, status,
 * headers), then the body.
 * No Node-only API: the same codec serves Redis and the edge tiers.
 */
import type { TierEntry } from './types.js';

const FENCE_WIDTH = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Head {
  readonly s: string;
  readonly t: number;
  readonly p: TierEntry['policy'];
  readonly c: number;
  readonly h: Readonly<Record<string, string>>;
}

export function fenceText(fence: number): string {
  return String(fence).padStart(FENCE_WIDTH, '0');
}

/** The entry without its fence (the store puts the fence in front). */
export function encodeEntry(entry: TierEntry, stamp: string): Uint8Array {
  const head: Head = { s: stamp, t: entry.storedAt, p: entry.policy, c: entry.answer.status, h: entry.answer.headers };
  const prefix = encoder.encode(`${JSON.stringify(head)}\n`);
  const bytes = new Uint8Array(prefix.byteLength + entry.answer.body.byteLength);
  bytes.set(prefix, 0);
  bytes.set(entry.answer.body, prefix.byteLength);
  return bytes;
}

/** The entry (fence included) and the stamp it was written with; undefined for bytes this codec did not write. */
export function decodeEntry(bytes: Uint8Array): { entry: TierEntry; stamp: string } | undefined {
  const newline = bytes.indexOf(10, FENCE_WIDTH);
  if (newline < 0) return undefined;
  try {
    const head = JSON.parse(decoder.decode(bytes.subarray(FENCE_WIDTH, newline))) as Head;
    const body = bytes.slice(newline + 1);
    return { entry: { storedAt: head.t, policy: head.p, answer: { status: head.c, headers: head.h, setCookie: [], body } }, stamp: head.s };
  } catch {
    return undefined;
  }
}

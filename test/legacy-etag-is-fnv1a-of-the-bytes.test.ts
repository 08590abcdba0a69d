/**
 * The ETag the gateway gives a legacy answer (src/legacy/answer-policy.ts) is the FNV-1a (32 bit)
 * of the bytes with their length, as the legacy backend's: a client revalidating with
 * If-None-Match after a deploy must meet the same tag for the same bytes. Known FNV-1a vectors,
 * and a body long enough for the hash to pass 2^31 many times over.
 */
import { describe, expect, it } from 'vitest';
import { weakEtag } from '../src/legacy/answer-policy.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** FNV-1a written out with BigInt, as the definition reads: xor the byte, multiply by the prime, modulo 2^32. */
function fnv1aByDefinition(data: Uint8Array): string {
  let hash = 0x811c9dc5n;
  for (const byte of data) hash = ((hash ^ BigInt(byte)) * 0x01000193n) % 2n ** 32n;
  return hash.toString(16).padStart(8, '0');
}

describe('the legacy ETag is the FNV-1a of the answer bytes', () => {
  it('gives the published FNV-1a test vectors', () => {
    expect(weakEtag(bytes(''))).toBe('W/"0-811c9dc5"');
    expect(weakEtag(bytes('a'))).toBe('W/"1-e40c292c"');
    expect(weakEtag(bytes('foobar'))).toBe('W/"6-bf9cf968"');
  });

  it('equals the definition over a 12 KB page of every byte value', () => {
    const page = new Uint8Array(12 * 1024);
    for (let index = 0; index < page.length; index++) page[index] = (index * 131 + (index >> 7)) & 0xff;
    expect(weakEtag(page)).toBe(`W/"3000-${fnv1aByDefinition(page)}"`);
  });

  it('equals the definition for bodies of any length starting anywhere in their buffer', () => {
    // The bytes are read four at a time where the buffer allows (src/hot-path.ts fnv1a32): the
    // bytes before the first aligned word and after the last must count too, once and in order.
    const buffer = new Uint8Array(64);
    for (let index = 0; index < buffer.length; index++) buffer[index] = (index * 97 + 13) & 0xff;
    for (let start = 0; start < 8; start++) {
      for (let length = 0; length <= 40; length++) {
        const body = buffer.subarray(start, start + length);
        expect(weakEtag(body), `bytes ${start}..${start + length}`).toBe(`W/"${length.toString(16)}-${fnv1aByDefinition(body)}"`);
      }
    }
  });
});

/**
 * The one place for speed tricks in the core (the runtime bindings, src/node and src/edge, hold
 * their own). Everything else is written plainly; use these only where an object is built per
 * request and lives across I/O.
 *
 * Why: in V8 (Node 20) an object literal with a spread, `{ ...base, name: value }` (also
 * `{ ...base }` then assignments, and a spread that only overrides members), gets a hidden class
 * of its own on every call: %HaveSameMap said 1,991 of 2,000 copies differ. A copy that outlives
 * a scavenge (a cache hit's headers wait for the socket, an api2 call's headers for the answer)
 * is promoted to the old generation with its class. Object.assign onto a fresh `{}` shares one
 * class. Measured in-process (Node 20.20, 2M copies of a cached page's five headers plus one):
 * spread 600 ns and +4.3 MB old space, Object.assign 120 ns and +13 KB; the api2 call's headers
 * 1,100 ns and +18 MB against 53 ns. Before this, cache hits with the usage log on promoted
 * 137-554 KB per scavenge (docs/benchmarks-anchors.md, "A hidden class per request").
 *
 * Why `fnv1a32` reads words: FNV-1a is one xor and one multiply per byte, in order; a loop that
 * loads each byte on its own pays the load, the bounds check and the loop test per byte. Reading
 * the bytes four at a time through a Uint32Array and taking them apart with shifts gives the
 * same hash: under callgrind (Node 20), 12,384 bytes took 247k instructions byte by byte and
 * 89k by words.
 *
 * Why `isDateText` tries a pattern first: an api2 date is read with Date.parse when the mapping
 * turns it into a legacy date, and was parsed once before that only to check it when the answer
 * is checked against its schema (mappings/api2-schemas.ts). A regular expression recognises
 * api2's own form for a fraction of Date.parse's cost (some 2,000 instructions a call, callgrind,
 * Node 20); any other text is still judged by Date.parse.
 */

/** A copy of `base` with `more`'s members set (added after base's, or replaced in place). */
export function copyWith<T extends object, U extends object>(base: T, more: U): Omit<T, keyof U> & U {
  return Object.assign({}, base, more);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const FNV_PRIME = 0x01000193;

/** FNV-1a (32 bit, unsigned) of the bytes: `hash = (hash ^ byte) * 16777619 mod 2^32`, byte by byte, from 2166136261. */
export function fnv1a32(bytes: Uint8Array): number {
  let hash = 0x811c9dc5 | 0; // kept as a 32-bit integer, read unsigned at the end
  let index = 0;
  // Bytes up to a 4-byte boundary of the buffer one by one (all of them on a big-endian machine).
  const head = LITTLE_ENDIAN ? Math.min(bytes.length, (4 - (bytes.byteOffset & 3)) & 3) : bytes.length;
  for (; index < head; index++) hash = Math.imul(hash ^ bytes[index]!, FNV_PRIME);
  const count = (bytes.length - index) >>> 2;
  if (count > 0) {
    // Little-endian: a word's low byte is the first of its four.
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + index, count);
    for (let at = 0; at < count; at++) {
      const word = words[at]!;
      hash = Math.imul(hash ^ (word & 0xff), FNV_PRIME);
      hash = Math.imul(hash ^ ((word >>> 8) & 0xff), FNV_PRIME);
      hash = Math.imul(hash ^ ((word >>> 16) & 0xff), FNV_PRIME);
      hash = Math.imul(hash ^ (word >>> 24), FNV_PRIME);
    }
    index += count * 4;
  }
  for (; index < bytes.length; index++) hash = Math.imul(hash ^ bytes[index]!, FNV_PRIME);
  return hash >>> 0;
}

/**
 * api2's form of a date-time: UTC, to the millisecond or coarser. Every text of this form is one
 * Date.parse reads: its fields are in range (Date.parse takes any day up to 31 in any month).
 */
const API2_DATE_TIME = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,3})?Z$/;

/** Whether Date.parse(text) is a date (not NaN). */
export function isDateText(text: string): boolean {
  return API2_DATE_TIME.test(text) || !Number.isNaN(Date.parse(text));
}

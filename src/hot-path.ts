/**
 * The one place for speed tricks in the core (the runtime bindings, src/node and src/edge, hold
 * their own). Everything else is written plainly; each trick here says in one line why it pays,
 * and docs/benchmarks-anchors.md ("Promotion", "Speed tricks") has the measurements.
 */

/**
 * A copy of `base` with `more`'s members set (added after base's, or replaced in place). Not a
 * spread: in V8 (Node 20) `{ ...base, name }` gets a hidden class per call, and a copy that lives
 * across I/O is promoted with it; Object.assign onto `{}` shares one (120 ns against 600 a copy).
 */
export function copyWith<T extends object, U extends object>(base: T, more: U): Omit<T, keyof U> & U {
  return Object.assign({}, base, more);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const FNV_PRIME = 0x01000193;

/**
 * FNV-1a (32 bit, unsigned) of the bytes: `hash = (hash ^ byte) * 16777619 mod 2^32`, byte by
 * byte, from 2166136261. Read four bytes at a time through a Uint32Array: the same hash in about a
 * third of the instructions of a byte-by-byte loop (callgrind, Node 20).
 */
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

/**
 * Whether Date.parse(text) is a date (not NaN). api2's own form is recognised by a pattern first,
 * a fraction of Date.parse's cost (some 2,000 instructions a call); any other text is still
 * judged by Date.parse.
 */
export function isDateText(text: string): boolean {
  return API2_DATE_TIME.test(text) || !Number.isNaN(Date.parse(text));
}

/**
 * `compute` (a pure function) with its answers remembered for up to `limit` keys, all forgotten
 * at once when full (no order kept: a hit is one Map lookup). For values asked again and again:
 * the same api_key, the same `pg=1`. An undefined answer is not remembered.
 */
export function remembered<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const answers = new Map<K, V>();
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = compute(key);
      if (answers.size >= limit) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
}

/**
 * `compute` (a pure function) with its last answer remembered: asked again with the same value (a
 * usage-log field's operation, mode, method, client hash), it answers without computing; one
 * value kept, so no memory grows. A usage line's string fields: ~20 ns against ~90 for the check
 * that a text needs no escape (Node 20, 12 such values a line).
 */
export function rememberedLast<V extends string | number | boolean, A>(compute: (value: V) => A): (value: V) => A {
  let last: V | undefined;
  let answer: A | undefined;
  return (value) => {
    if (value !== last || answer === undefined) {
      answer = compute(value);
      last = value;
    }
    return answer;
  };
}

/** A memo of `rememberedWhenShort`: the answer, and how many are remembered now. */
export interface KeyedMemo<I, V> {
  (key: string, inputs: I): V;
  readonly size: () => number;
}

/**
 * `compute(key, inputs)` remembered by `key`, for a `key` that is the exact text of everything
 * `compute` reads of `inputs` (the caller's duty: then an answer is never handed to inputs that
 * differ). At most `limit` answers, all forgotten at once when full, and none for a key longer
 * than `maxKeyLength`, so the memory is bounded by limit × (maxKeyLength + an answer); an undefined
 * answer is not remembered. For the
 * canonical request of a repeated request: one Map lookup instead of parsing and checking it.
 */
export function rememberedWhenShort<I, V>(limit: number, maxKeyLength: number, compute: (key: string, inputs: I) => V): KeyedMemo<I, V> {
  const answers = new Map<string, V>();
  const memo = (key: string, inputs: I): V => {
    if (key.length > maxKeyLength) return compute(key, inputs);
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = compute(key, inputs);
      if (answer === undefined) return answer;
      if (answers.size >= limit) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
  return Object.assign(memo, { size: () => answers.size });
}

/** `rememberedWhenShort` per owner (a shared canonical request's parameters): dropped with it (WeakMap). */
export function rememberedPerOwner<O extends object, I, V>(limit: number, maxKeyLength: number, compute: (owner: O, key: string, inputs: I) => V): (owner: O, key: string, inputs: I) => V {
  const byOwner = new WeakMap<O, KeyedMemo<I, V>>();
  return (owner, key, inputs) => {
    let memo = byOwner.get(owner);
    if (!memo) byOwner.set(owner, (memo = rememberedWhenShort(limit, maxKeyLength, (k: string, i: I) => compute(owner, k, i))));
    return memo(key, inputs);
  };
}

/** The same per owner (a rule, a stored page): an owner's answers are dropped with it (WeakMap). */
export function rememberedPer<O extends object, K, V>(limit: number, compute: (owner: O, key: K) => V): (owner: O, key: K) => V {
  const byOwner = new WeakMap<O, (key: K) => V>();
  return (owner, key) => {
    let ask = byOwner.get(owner);
    if (!ask) byOwner.set(owner, (ask = remembered(limit, (k: K) => compute(owner, k))));
    return ask(key);
  };
}

/** A value now or later: a HIT is answered in the tick it arrived, without a promise (no turn, no allocation). */
export type SyncOrAsync<T> = T | Promise<T>;

/**
 * The one async boundary: `onValue` at once for a value, once settled for a promise (`onError`
 * only then: a value now cannot have failed). Every sync-or-async step goes through here.
 */
export function whenReady<T, U>(value: SyncOrAsync<T>, onValue: (value: T) => SyncOrAsync<U>, onError?: (error: unknown) => SyncOrAsync<U>): SyncOrAsync<U> {
  if (!(value instanceof Promise)) return onValue(value);
  return value.then(onValue, onError);
}

/**
 * Random ids cut from a text of random ids made a batch at a time: a v4 UUID (the record's id, a
 * request id the client did not give) or hex digits (trace and span ids). Each id is one slice of
 * that text, where crypto.randomUUID (Node 20) and a digit-by-digit hex string joined 16 to 20
 * pieces each, some 500 B of short-lived strings per id and 3 ids a request. The bytes are
 * crypto.getRandomValues' as before. A slice keeps its batch's text (at most 8 KiB) alive while it
 * is kept itself: ids live as long as their record, which is written and let go.
 */
const HEX_DIGITS = new TextEncoder().encode('0123456789abcdef');
const asciiText = new TextDecoder();
const UUIDS_PER_BATCH = 128;
const UUID_LENGTH = 36;
let uuidText = '';
let uuidsTaken = UUIDS_PER_BATCH;

/** A version 4 UUID (RFC 9562 section 5.4), lower-case, as crypto.randomUUID writes it. */
export function randomUuid(): string {
  if (uuidsTaken === UUIDS_PER_BATCH) {
    const random = crypto.getRandomValues(new Uint8Array(16 * UUIDS_PER_BATCH));
    const text = new Uint8Array(UUID_LENGTH * UUIDS_PER_BATCH);
    for (let at = 0; at < random.length; at += 16) {
      random[at + 6] = (random[at + 6]! & 0x0f) | 0x40; // version 4
      random[at + 8] = (random[at + 8]! & 0x3f) | 0x80; // variant 10
    }
    writeHex(random, text, true);
    uuidText = asciiText.decode(text);
    uuidsTaken = 0;
  }
  const at = uuidsTaken++ * UUID_LENGTH;
  return uuidText.slice(at, at + UUID_LENGTH);
}

const HEX_BATCH_BYTES = 4096;
let hexText = '';
let hexTaken = HEX_BATCH_BYTES;

/** `bytes` random bytes as 2 × `bytes` lower-case hex digits (at most 4,096 bytes). */
export function randomHexDigits(bytes: number): string {
  if (hexTaken + bytes > HEX_BATCH_BYTES) {
    const text = new Uint8Array(2 * HEX_BATCH_BYTES);
    writeHex(crypto.getRandomValues(new Uint8Array(HEX_BATCH_BYTES)), text, false);
    hexText = asciiText.decode(text);
    hexTaken = 0;
  }
  const at = 2 * hexTaken;
  hexTaken += bytes;
  return hexText.slice(at, at + 2 * bytes);
}

/** The hex digits of `bytes` into `text`; `dashed`: each 16 bytes in a UUID's 8-4-4-4-12 groups. */
function writeHex(bytes: Uint8Array, text: Uint8Array, dashed: boolean): void {
  let to = 0;
  for (let index = 0; index < bytes.length; index++) {
    const inUuid = index & 15;
    if (dashed && (inUuid === 4 || inUuid === 6 || inUuid === 8 || inUuid === 10)) text[to++] = 0x2d;
    text[to++] = HEX_DIGITS[bytes[index]! >> 4]!;
    text[to++] = HEX_DIGITS[bytes[index]! & 0xf]!;
  }
}

/**
 * The one writer of legacy JSON: the bytes the legacy ASP.NET service wrote through WCF's
 * DataContractJsonSerializer (XmlJsonWriter), so that clients built on Microsoft's AJAX script
 * library, which turns a string into a date only when its slashes are escaped, keep reading dates.
 *
 * Conventions (XmlJsonWriter, .NET Framework 4.x reference source):
 * - Strings: `"`, `\` and EVERY `/` are backslash-escaped (`\/Date(1436410705347)\/`,
 *   `http:\/\/...`); characters below U+0020 are `\u00xx` (lower-case hex, no `\n`-style short
 *   forms); U+0085, U+2028, U+2029, lone or paired surrogates (U+D800-U+DFFF) and U+FFFE/U+FFFF
 *   are `\uxxxx` too (an emoji is written as its two escaped surrogates). Everything else is
 *   written as it is (UTF-8).
 * - Numbers: integers as decimal digits; other doubles as .NET Framework's round-trip format "R"
 *   (15 significant digits when they read back to the same double, else 17; exponent form
 *   `1E+15`, `1E-05` outside [1e-5, 1e15)); negative zero is `-0`.
 * - No whitespace between tokens.
 * - Members in the record's declared order, every declared member written: an unset member is
 *   `null` (DataContract's EmitDefaultValue = true). Only members the schema marks optional may be
 *   absent (the error body's ModelState).
 *
 * DECISION: NaN and infinities (which no legacy record schema admits) are written as null, not
 * as .NET's `NaN`/`INF`, which are not JSON.
 */
import { z } from 'zod';

/**
 * Serialises `value` as UTF-8 bytes; with `schema`, objects follow the schema's member order and
 * null rules. The bytes are written straight into a buffer: a body built as a string of pieces
 * had to be flattened and encoded afterwards, which cost as much as the writing.
 */
export function toLegacyJsonBytes(value: unknown, schema?: z.ZodType): Uint8Array<ArrayBuffer> {
  const out = takeBuffer();
  writeValue(out, value, shapeOf(schema));
  const bytes = out.bytes.slice(0, out.at);
  giveBack(out);
  return bytes;
}

/** The same, as a string. */
export function toLegacyJson(value: unknown, schema?: z.ZodType): string {
  const out = takeBuffer();
  writeValue(out, value, shapeOf(schema));
  const text = decoder.decode(out.bytes.subarray(0, out.at));
  giveBack(out);
  return text;
}

/** One JSON string: quotes and escapes (see the conventions above). */
export function legacyJsonString(text: string): string {
  const out: Out = { bytes: new Uint8Array(2 + text.length * 6), at: 0 };
  writeString(out, text);
  return decoder.decode(out.bytes.subarray(0, out.at));
}

const decoder = new TextDecoder();

/** Bytes written so far. */
interface Out {
  bytes: Uint8Array<ArrayBuffer>;
  at: number;
}

/**
 * One buffer serves every write (a write is synchronous, start to end); a write that finds it
 * taken (one started from inside another, which no record does) gets a buffer of its own.
 */
let spare: Out | undefined = { bytes: new Uint8Array(16 * 1024), at: 0 };
const KEPT_BYTES = 256 * 1024;

function takeBuffer(): Out {
  const out = spare ?? { bytes: new Uint8Array(16 * 1024), at: 0 };
  spare = undefined;
  out.at = 0;
  return out;
}

function giveBack(out: Out): void {
  if (out.bytes.length <= KEPT_BYTES) spare = out;
}

/** Room for `more` bytes after `out.at`. */
function room(out: Out, more: number): void {
  if (out.at + more <= out.bytes.length) return;
  const grown = new Uint8Array(Math.max(out.bytes.length * 2, out.at + more));
  grown.set(out.bytes.subarray(0, out.at));
  out.bytes = grown;
}

/** ASCII text (numbers, literals) as it is. */
function writeAscii(out: Out, text: string): void {
  room(out, text.length);
  const { bytes } = out;
  let at = out.at;
  for (let index = 0; index < text.length; index++) bytes[at++] = text.charCodeAt(index);
  out.at = at;
}

/** Bytes made beforehand (a member's key), copied at once: byte by byte cost about 30 instructions a byte. */
function writeBytes(out: Out, piece: Uint8Array): void {
  room(out, piece.length);
  out.bytes.set(piece, out.at);
  out.at += piece.length;
}

const HEX = '0123456789abcdef';

/**
 * A JSON string, code unit by code unit: `"`, `/` and `\` after a backslash; below U+0020,
 * U+0085, U+2028, U+2029, every surrogate, U+FFFE and U+FFFF as `\uxxxx` (lower-case hex); the
 * rest as UTF-8. Surrogates never reach the UTF-8 step, so no code unit needs more than 3 bytes.
 */
function writeString(out: Out, text: string): void {
  const length = text.length;
  room(out, 2 + length * 6);
  const { bytes } = out;
  let at = out.at;
  bytes[at++] = 0x22;
  for (let index = 0; index < length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) {
      if (unit >= 0x20) {
        if (unit === 0x22 || unit === 0x2f || unit === 0x5c) bytes[at++] = 0x5c;
        bytes[at++] = unit;
        continue;
      }
    } else if (!(unit === 0x85 || unit === 0x2028 || unit === 0x2029 || (unit >= 0xd800 && unit <= 0xdfff) || unit >= 0xfffe)) {
      if (unit < 0x800) {
        bytes[at++] = 0xc0 | (unit >> 6);
      } else {
        bytes[at++] = 0xe0 | (unit >> 12);
        bytes[at++] = 0x80 | ((unit >> 6) & 0x3f);
      }
      bytes[at++] = 0x80 | (unit & 0x3f);
      continue;
    }
    bytes[at++] = 0x5c;
    bytes[at++] = 0x75;
    bytes[at++] = HEX.charCodeAt(unit >> 12);
    bytes[at++] = HEX.charCodeAt((unit >> 8) & 0xf);
    bytes[at++] = HEX.charCodeAt((unit >> 4) & 0xf);
    bytes[at++] = HEX.charCodeAt(unit & 0xf);
  }
  bytes[at++] = 0x22;
  out.at = at;
}

/** The bytes of a member's name as written before its value: `"Name":`, and `,"Name":` after another. */
function memberKey(name: string, comma: boolean): Uint8Array {
  const out: Out = { bytes: new Uint8Array(3 + name.length * 6), at: 0 };
  if (comma) out.bytes[out.at++] = 0x2c;
  writeString(out, name);
  out.bytes[out.at++] = 0x3a;
  return out.bytes.slice(0, out.at);
}

/**
 * How a schema is written, worked out once per schema (records are written by the thousand): its
 * object plan (NO_PLAN when it is no object schema) and, for an array schema, its element's shape.
 * Optional and nullable wrappers are looked through (see `unwrap`).
 */
interface Shape {
  readonly plan: ObjectPlan;
  readonly element: Shape;
}

interface ObjectPlan {
  readonly members: ReadonlyArray<{ readonly name: string; readonly key: Uint8Array; readonly nextKey: Uint8Array; readonly shape: Shape; readonly optional: boolean }>;
  readonly declared: ReadonlySet<string>;
}

const NO_PLAN: ObjectPlan = { members: [], declared: new Set() };
/** No schema: objects written with their own members, array entries the same. */
const NO_SHAPE: Shape = {
  plan: NO_PLAN,
  get element() {
    return NO_SHAPE;
  },
};
const shapes = new WeakMap<z.ZodType, Shape>();

function shapeOf(schema: z.ZodType | undefined): Shape {
  const unwrapped = unwrap(schema);
  if (!(unwrapped instanceof z.ZodObject) && !(unwrapped instanceof z.ZodArray)) return NO_SHAPE;
  let shape = shapes.get(unwrapped);
  if (shape) return shape;
  if (unwrapped instanceof z.ZodArray) {
    const element = unwrapped.element as z.ZodType;
    // Resolved on first use: a schema may refer to itself.
    let resolved: Shape | undefined;
    shape = {
      plan: NO_PLAN,
      get element() {
        return (resolved ??= shapeOf(element));
      },
    };
  } else {
    const members: Array<ObjectPlan['members'][number]> = [];
    const declared = new Set<string>();
    shape = { plan: { members, declared }, element: NO_SHAPE };
    shapes.set(unwrapped, shape); // before the members: a schema may refer to itself
    for (const [name, child] of Object.entries(unwrapped.shape as Record<string, z.ZodType>)) {
      members.push({ name, key: memberKey(name, false), nextKey: memberKey(name, true), shape: shapeOf(child), optional: child instanceof z.ZodOptional });
      declared.add(name);
    }
  }
  shapes.set(unwrapped, shape);
  return shape;
}

const NULL = 'null';

function writeValue(out: Out, value: unknown, shape: Shape): void {
  if (value === null || value === undefined) writeAscii(out, NULL);
  else if (typeof value === 'string') writeString(out, value);
  else if (typeof value === 'number') writeAscii(out, legacyJsonNumber(value));
  else if (typeof value === 'boolean') writeAscii(out, value ? 'true' : 'false');
  else if (Array.isArray(value)) writeArray(out, value, shape.element);
  else if (typeof value === 'object') writeObject(out, value as Record<string, unknown>, shape.plan);
  else writeAscii(out, NULL);
}

function writeArray(out: Out, entries: readonly unknown[], element: Shape): void {
  writeAscii(out, '[');
  for (let index = 0; index < entries.length; index++) {
    if (index > 0) writeAscii(out, ',');
    writeValue(out, entries[index], element);
  }
  writeAscii(out, ']');
}

function writeObject(out: Out, record: Record<string, unknown>, plan: ObjectPlan): void {
  const { members } = plan;
  // A record built in its declared order with nothing else (what every mapping builds) has its
  // keys equal to the members, in order: then no member needs an ownership test and no key can be
  // undeclared. Any other record takes the general path.
  const inOrder = keysAreMembers(record, members);
  // In order, the values come in the members' order too: read at once, not looked up by name.
  const values = inOrder ? Object.values(record) : undefined;
  let first = true;
  writeAscii(out, '{');
  for (let index = 0; index < members.length; index++) {
    const { name, key, nextKey, shape, optional } = members[index]!;
    const child = values ? values[index] : Object.hasOwn(record, name) ? record[name] : undefined;
    if (child === undefined && optional) continue;
    writeBytes(out, first ? key : nextKey);
    first = false;
    writeValue(out, child, shape);
  }
  if (!inOrder) {
    // Members the schema does not declare (or every member, without a schema), in their own order.
    for (const name of Object.keys(record)) {
      const child = record[name];
      if (plan.declared.has(name) || child === undefined) continue;
      if (!first) writeAscii(out, ',');
      first = false;
      writeString(out, name);
      writeAscii(out, ':');
      writeValue(out, child, NO_SHAPE);
    }
  }
  writeAscii(out, '}');
}

/** Whether the record's enumerable keys are exactly the members' names, in the same order. */
function keysAreMembers(record: Record<string, unknown>, members: ObjectPlan['members']): boolean {
  const names = Object.keys(record);
  return names.length === members.length && names.every((name, index) => name === members[index]!.name);
}

/** Optional and nullable wrappers hide the array or object schema inside. */
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodType;
  return current;
}

export function legacyJsonNumber(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  if (Object.is(value, -0)) return '-0';
  // Ids, counts and epoch milliseconds are integers (Int32/Int64) in the legacy model: plain digits.
  if (Number.isSafeInteger(value)) return String(value);
  // Between 1e-4 and 1e15 .NET writes positional notation, as JavaScript does; and a double whose
  // shortest form (JavaScript's) has at most 15 significant digits is that same decimal rounded to
  // 15 digits (any decimal of 15 digits or fewer survives the trip to a double and back), which
  // reads back to the same double: the "R" format's first choice. With more, no 15-digit form
  // reads back (the shortest would have it), so "R" takes 17. Star ratings take this path.
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-4 && magnitude < 1e15) {
    const text = String(value);
    // The 17 digits in this range are positional (an exponent from -4 to 14), as "R" writes them
    // once trailing zeros go.
    return significantDigits(text) <= 15 ? text : value.toPrecision(17).replace(/\.?0+$/, '');
  }
  return roundTripNumber(value);
}

/** The "R" format worked out digit by digit: 15 significant digits when they read back to `value`, else 17. */
export function roundTripNumber(value: number): string {
  const short = roundTripDigits(value, 15);
  return Number(short.text) === value ? short.formatted : roundTripDigits(value, 17).formatted;
}

/** Digits of a positional number's text, leading zeros not counted. */
function significantDigits(text: string): number {
  let count = 0;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= 0x31 ? unit <= 0x39 : unit === 0x30 && count > 0) count += 1;
  }
  return count;
}

/** .NET "G<precision>" formatting of `value`: `text` is a JS-parseable form of the same digits. */
function roundTripDigits(value: number, precision: number): { text: string; formatted: string } {
  const [mantissa = '0', exponentText = '0'] = value.toExponential(precision - 1).split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '').replace(/0+$/, '') || '0';
  const sign = negative ? '-' : '';
  const text = `${sign}${digits[0]}.${digits.slice(1) || '0'}e${exponent}`;
  if (exponent > -5 && exponent < precision) return { text, formatted: sign + fixedNotation(digits, exponent) };
  const scientificMantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const exponentPart = `${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  return { text, formatted: `${sign}${scientificMantissa}E${exponentPart}` };
}

/** Significant `digits` (no trailing zeros) with the decimal exponent `exponent`, in positional notation. */
function fixedNotation(digits: string, exponent: number): string {
  if (exponent < 0) return `0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return fraction ? `${whole}.${fraction}` : whole;
}

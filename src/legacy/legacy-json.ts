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

/** Serialises `value`; with `schema`, objects follow the schema's member order and null rules. */
export function toLegacyJson(value: unknown, schema?: z.ZodType): string {
  return writeValue(value, shapeOf(schema));
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
  readonly members: ReadonlyArray<{ readonly name: string; readonly key: string; readonly shape: Shape; readonly optional: boolean }>;
  readonly declared: ReadonlySet<string>;
}

const NO_PLAN: ObjectPlan = { members: [], declared: new Set() };
/** No schema: objects written with their own members, array entries the same. */
const NO_SHAPE: Shape = { plan: NO_PLAN, get element() { return NO_SHAPE; } };
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
    shape = { plan: NO_PLAN, get element() { return (resolved ??= shapeOf(element)); } };
  } else {
    const members: Array<ObjectPlan['members'][number]> = [];
    const plan: ObjectPlan = { members, declared: new Set() };
    shape = { plan, element: NO_SHAPE };
    shapes.set(unwrapped, shape); // before the members: a schema may refer to itself
    for (const [name, child] of Object.entries(unwrapped.shape as Record<string, z.ZodType>)) {
      members.push({ name, key: `${legacyJsonString(name)}:`, shape: shapeOf(child), optional: child instanceof z.ZodOptional });
      (plan.declared as Set<string>).add(name);
    }
  }
  shapes.set(unwrapped, shape);
  return shape;
}

function writeValue(value: unknown, shape: Shape): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return legacyJsonString(value);
  if (typeof value === 'number') return legacyJsonNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return writeArray(value, shape.element);
  if (typeof value === 'object') return writeObject(value as Record<string, unknown>, shape.plan);
  return 'null';
}

function writeArray(entries: readonly unknown[], element: Shape): string {
  if (entries.length === 0) return '[]';
  let out = `[${writeValue(entries[0], element)}`;
  for (let index = 1; index < entries.length; index++) out += `,${writeValue(entries[index], element)}`;
  return `${out}]`;
}

function writeObject(record: Record<string, unknown>, plan: ObjectPlan): string {
  const { members } = plan;
  // A record built in its declared order with nothing else (what every mapping builds) has its
  // own keys equal to the members, in order: then no member needs an ownership test and no key
  // can be undeclared.
  const keys = Object.keys(record);
  let inOrder = keys.length === members.length;
  let out = '{';
  for (let index = 0; index < members.length; index++) {
    const { name, key, shape, optional } = members[index]!;
    let child: unknown;
    if (inOrder && keys[index] === name) child = record[name];
    else {
      inOrder = false;
      child = Object.hasOwn(record, name) ? record[name] : undefined;
    }
    if (child === undefined && optional) continue;
    out += out.length > 1 ? `,${key}${writeValue(child, shape)}` : `${key}${writeValue(child, shape)}`;
  }
  if (inOrder) return `${out}}`;
  // Members the schema does not declare (or every member, without a schema), in their own order.
  for (const name of keys) {
    const child = record[name];
    if (plan.declared.has(name) || child === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${legacyJsonString(name)}:${writeValue(child, NO_SHAPE)}`;
  }
  return `${out}}`;
}

/** Optional and nullable wrappers hide the array or object schema inside. */
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodType;
  return current;
}

/** The three escaped with a backslash before them. */
const BACKSLASHED = /["/\\]/g;
// eslint-disable-next-line no-control-regex
const AS_CODE_UNITS = /[\u0000-\u001f\u0085\u2028\u2029\ud800-\udfff\ufffe\uffff]/g;

export function legacyJsonString(text: string): string {
  // One pass over the code units: most texts need no escape but their slashes (every URL and
  // date has some), written as the runs between them; anything else to escape takes the
  // general path below.
  let out = '"';
  let from = 0;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit === 0x2f) {
      out += `${text.slice(from, at)}\\/`;
      from = at + 1;
    } else if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0x85 && needsEscape(unit))) {
      return escapeEveryKind(text);
    }
  }
  return from === 0 ? `"${text}"` : `${out}${text.slice(from)}"`;
}

/** Above U+0084: U+0085, U+2028, U+2029, surrogates, U+FFFE, U+FFFF. */
function needsEscape(unit: number): boolean {
  return unit === 0x85 || unit === 0x2028 || unit === 0x2029 || (unit >= 0xd800 && unit <= 0xdfff) || unit >= 0xfffe;
}

/** `"`, `/` and `\` backslashed, the rest as `\uxxxx`. */
function escapeEveryKind(text: string): string {
  return `"${text.replace(BACKSLASHED, '\\$&').replace(AS_CODE_UNITS, codeUnitEscape)}"`;
}

function codeUnitEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

export function legacyJsonNumber(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  if (Object.is(value, -0)) return '-0';
  // Ids, counts and epoch milliseconds are integers (Int32/Int64) in the legacy model: plain digits.
  if (Number.isSafeInteger(value)) return String(value);
  const short = roundTripDigits(value, 15);
  return Number(short.text) === value ? short.formatted : roundTripDigits(value, 17).formatted;
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

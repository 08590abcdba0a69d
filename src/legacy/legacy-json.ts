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
  return writeValue(value, unwrap(schema));
}

/** `shape`: the value's schema with optional and nullable wrappers removed (see `unwrap`). */
function writeValue(value: unknown, shape: z.ZodType | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return legacyJsonString(value);
  if (typeof value === 'number') return legacyJsonNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return writeArray(value, shape instanceof z.ZodArray ? unwrap(shape.element as z.ZodType) : undefined);
  if (typeof value === 'object') return writeObject(value as Record<string, unknown>, shape instanceof z.ZodObject ? planOf(shape) : NO_PLAN);
  return 'null';
}

function writeArray(entries: readonly unknown[], element: z.ZodType | undefined): string {
  let out = '[';
  for (let index = 0; index < entries.length; index++) {
    if (index > 0) out += ',';
    out += writeValue(entries[index], element);
  }
  return `${out}]`;
}

/** How an object schema is written, worked out once per schema (records are written by the thousand). */
interface ObjectPlan {
  readonly members: ReadonlyArray<{ readonly name: string; readonly key: string; readonly shape: z.ZodType | undefined; readonly optional: boolean }>;
  readonly declared: ReadonlySet<string>;
}

const NO_PLAN: ObjectPlan = { members: [], declared: new Set() };
const plans = new WeakMap<z.ZodObject, ObjectPlan>();

function planOf(schema: z.ZodObject): ObjectPlan {
  let plan = plans.get(schema);
  if (!plan) {
    const members = Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, child]) => ({
      name,
      key: `${legacyJsonString(name)}:`,
      shape: unwrap(child),
      optional: child instanceof z.ZodOptional,
    }));
    plan = { members, declared: new Set(members.map((member) => member.name)) };
    plans.set(schema, plan);
  }
  return plan;
}

function writeObject(record: Record<string, unknown>, plan: ObjectPlan): string {
  let out = '{';
  for (const { name, key, shape, optional } of plan.members) {
    const child = Object.hasOwn(record, name) ? record[name] : undefined;
    if (child === undefined && optional) continue;
    out += `${out.length > 1 ? ',' : ''}${key}${writeValue(child, shape)}`;
  }
  // Members the schema does not declare (or every member, without a schema), in their own order.
  for (const name of Object.keys(record)) {
    const child = record[name];
    if (plan.declared.has(name) || child === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${legacyJsonString(name)}:${writeValue(child, undefined)}`;
  }
  return `${out}}`;
}

/** Optional and nullable wrappers hide the array or object schema inside. */
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodType;
  return current;
}

// U+0000-U+001F, " / \, U+0085, U+2028, U+2029, surrogates, U+FFFE, U+FFFF.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\u0000-\u001f"/\\\u0085\u2028\u2029\ud800-\udfff\ufffe\uffff]/;
/** The three escaped with a backslash before them; every URL has slashes. */
const BACKSLASHED = /["/\\]/g;
// eslint-disable-next-line no-control-regex
const AS_CODE_UNIT = /[\u0000-\u001f\u0085\u2028\u2029\ud800-\udfff\ufffe\uffff]/;
// eslint-disable-next-line no-control-regex
const AS_CODE_UNITS = /[\u0000-\u001f\u0085\u2028\u2029\ud800-\udfff\ufffe\uffff]/g;

export function legacyJsonString(text: string): string {
  // Most texts need no escape, and most of the rest only backslashes (URLs): a replacement
  // pattern, not a callback per character.
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  let escaped = text.replace(BACKSLASHED, '\\$&');
  if (AS_CODE_UNIT.test(escaped)) escaped = escaped.replace(AS_CODE_UNITS, codeUnitEscape);
  return `"${escaped}"`;
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

/**
 * The parameter rules of the legacy document (parts 2, 4.5 and 8), one zod schema per rule.
 *
 * Every schema takes the raw string a client sent and yields the typed value, so the gateway
 * (which validates before forwarding) and the sandbox legacy backend (which validates before
 * acting) apply exactly the same rules and answer with exactly the same messages.
 * The `rule` text is what an error names: "<field> <rule>".
 */
import { z } from 'zod';
import { rememberedPer } from '../hot-path.js';

export interface ParamRule<T = unknown> {
  /** Human wording of the rule, completes the sentence "<name> must ...". */
  readonly rule: string;
  readonly schema: z.ZodType<T, string>;
  /**
   * The canonical text of a valid value: what the gateway forwards and keys (src/request/). Null
   * leaves the parameter out (a value that restricts nothing). Without it: the value as text.
   */
  render?(value: T): string | null;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_ID = 2_147_483_647; // legacy ids are 32-bit integers (RecipeID is "integer" in part 2.5)

function rule<T>(text: string, schema: z.ZodType<T, string>, render?: (value: T) => string | null): ParamRule<T> {
  return render ? { rule: text, schema, render } : { rule: text, schema };
}

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false };

/** Texts longer than this are checked every time: what is remembered stays under 1,024 × 64 characters per rule. */
const REMEMBERED_TEXT_LENGTH = 64;
const REFUSED: Checked<never> = { ok: false };

function check(paramRule: ParamRule, raw: string): Checked<unknown> {
  const parsed = paramRule.schema.safeParse(raw);
  // Frozen: a remembered value is handed to every request that sends this text.
  return parsed.success ? { ok: true, value: Object.freeze(parsed.data) } : REFUSED;
}

/** The same texts come again and again (`pg=1`, `rpp=10`) and a zod parse costs µs: remembered per rule (src/hot-path.ts). */
const checkRemembered = rememberedPer(1024, check);

/** A raw text checked against a rule. */
export function checkRaw<T>(paramRule: ParamRule<T>, raw: string): Checked<T> {
  return (raw.length > REMEMBERED_TEXT_LENGTH ? check(paramRule, raw) : checkRemembered(paramRule, raw)) as Checked<T>;
}

export const positiveId = rule(
  `be a whole number from 1 to ${MAX_ID}`,
  z
    .string()
    .regex(/^[0-9]{1,10}$/)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_ID),
);

/** Grocery items are addressed by their integer ItemID or by their GUID (api2-notes, grocery list). */
export const groceryItemId = rule(
  `be a whole number from 1 to ${MAX_ID} or a GUID`,
  z.string().refine((s) => GUID.test(s) || (/^[0-9]{1,10}$/.test(s) && Number(s) >= 1 && Number(s) <= MAX_ID)),
);

export const rating = rule(
  'be one of 1, 2, 3, 4, 5',
  z
    .string()
    .regex(/^[1-5]$/)
    .transform(Number),
);

export const makeAgain = rule(
  'be one of yes, no, notmake',
  z.enum(['yes', 'no', 'notmake']),
);

export function text(maxLength: number): ParamRule<string> {
  return rule(
    `be a non-empty text of at most ${maxLength} characters`,
    z
      .string()
      .refine((s) => s.trim().length > 0 && s.length <= maxLength),
  );
}

export function optionalText(maxLength: number): ParamRule<string> {
  return rule(`be a text of at most ${maxLength} characters`, z.string().max(maxLength));
}

/** DECISION: durations (totaltime, activetime) are whole minutes, as api2 carries them. */
export const minutes = rule(
  'be a whole number of minutes from 0 to 100000',
  z
    .string()
    .regex(/^[0-9]{1,6}$/)
    .transform(Number)
    .refine((n) => n <= 100_000),
);

export const page = rule(
  'be a whole number from 1 to 100000',
  z
    .string()
    .regex(/^[0-9]{1,6}$/)
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100_000),
);

/** rpp at most 50 (api2-notes, paging [C]). */
export const resultsPerPage = rule(
  'be a whole number from 1 to 50',
  z
    .string()
    .regex(/^[0-9]{1,3}$/)
    .transform(Number)
    .refine((n) => n >= 1 && n <= 50),
);

/** The include_primarycat tokens of part 4.5 (decoded: "main%20dish" arrives as "main dish"). */
export const PRIMARY_CATEGORY_TOKENS = [
  'dessert',
  'appetizer',
  'bread',
  'breakfast',
  'drinks',
  'main dish',
  'salad',
  'side dish',
  'soup',
  'marinade',
  'other',
] as const;
export type PrimaryCategoryToken = (typeof PRIMARY_CATEGORY_TOKENS)[number];

export const primaryCategory = rule(
  `be one of ${PRIMARY_CATEGORY_TOKENS.join(', ')}`,
  z
    .string()
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(PRIMARY_CATEGORY_TOKENS)),
);

/** Comma-separated list of at most 3 ingredients (part 8). Empty entries are dropped. */
export const ingredientList = rule(
  'be a comma-separated list of at most 3 ingredients',
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part.length > 0),
    )
    .refine((list) => list.length <= 3 && list.every((i) => i.length <= 100))
    // DECISION: ingredient matching is case-insensitive and unordered (part 8): one canonical list,
    // as the value itself, so the legacy fill, the page key and the api2 call all carry it.
    .transform((list) => list.map((i) => i.toLowerCase()).sort()),
  (list) => (list.length === 0 ? null : list.join(',')),
);

/** DECISION: photos accepts 1 (restrict to recipes with photos) and 0 (no restriction). */
export const photosFlag = rule(
  'be 1 or 0',
  z
    .enum(['1', '0'])
    .transform((s) => s === '1'),
  // photos=0 restricts nothing: left out, as if absent.
  (photos) => (photos ? '1' : null),
);

export const keyword = rule('be a text of at most 200 characters', z.string().max(200));

/** A cuisine: any text; matching is case-insensitive (part 4.5), so its value is lower-cased (to legacy and api2 alike). */
export const cuisine = rule('be a text of at most 200 characters', z.string().max(200).transform((value) => value.toLowerCase()));

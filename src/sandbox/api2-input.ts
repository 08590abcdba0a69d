/**
 * The api2 sandbox's input rules: search parameters and request bodies, parsed from the name →
 * text maps of src/request/first-values.ts (parseQuery, parseBody: names lower-cased, as ASP.NET binds them
 * without regard to case).
 *
 * DECISIONS (the spec types every field but states no rule):
 * - pg and rpp are required on search ("All searches must contain the paging parameters pg and
 *   rpp" [C]); pg 1..100000, rpp 1..50 (the legacy maximum; api2 documents none [I]).
 * - include_primarycat: a CSV of up to three api2 tokens (spec description [C]); include_ing and
 *   exclude_ing: CSVs of up to three ingredients [C]. title_kw, any_kw, cuisine: at most 200 chars.
 * - photos: `true` or `false` in any case (ASP.NET bool binding). filter: `favorites` or `try`
 *   (the spec's `myrecipes` and `added` are not implemented: 400).
 * - Paid-plan parameters, as in legacy: include_primarycat, cuisine, include_ing, exclude_ing and
 *   photos=true.
 * - Other spec search parameters (folder, coll, userId, vtn, ...) are ignored.
 * - Reviews: StarRating 1..5 and a non-empty Comment (at most 4000) are required, as legacy
 *   requires rating and message; MakeAgain is `yes` or `no` and optional (the spec requires no
 *   field): absent means no answer, kept as notmake [I]; the value `notmake` itself is refused.
 *   TotalMinutes / ActiveMinutes are optional whole minutes 0..100000.
 * - Grocery items: name required (at most 200); quantity and unit optional and joined with a space
 *   into the display quantity ("1" + "lb" → "1 lb"); notes, department optional (absent → '').
 *   ischecked: `true`/`false`. A body `guid` different from the path's → 400.
 */
import type { ParamValues } from '../request/first-values.js';
import type { PrimaryCategoryToken } from '../legacy/param-rules.js';
import { API2_CATEGORY_TOKENS } from './api2-records.js';

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: readonly FieldError[] };

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export type SearchFilter = 'favorites' | 'try';

export interface Api2SearchQuery {
  readonly titleKw?: string;
  readonly anyKw?: string;
  readonly categories?: readonly PrimaryCategoryToken[];
  readonly cuisine?: string;
  readonly includeIng?: readonly string[];
  readonly excludeIng?: readonly string[];
  readonly photos?: boolean;
  readonly filter?: SearchFilter;
  readonly page: number;
  readonly perPage: number;
}

export interface ReviewBody {
  readonly rating: number;
  /** `notmake` when the request carried no MakeAgain (api2 has no value for "have not made it"). */
  readonly makeAgain: 'yes' | 'no' | 'notmake';
  readonly comment: string;
  readonly totalMinutes: number | null;
  readonly activeMinutes: number | null;
}

export interface GroceryBody {
  readonly name: string;
  readonly quantity: string;
  readonly notes: string;
  readonly department: string;
  /** undefined: leave as it is. */
  readonly isChecked?: boolean;
  readonly guid?: string;
}

/** A reader that collects every broken rule instead of stopping at the first. */
class Reader {
  readonly errors: FieldError[] = [];
  constructor(private readonly values: ParamValues) {}

  private raw(name: string): string | undefined {
    const value = this.values.get(name.toLowerCase());
    return value === undefined || value === '' ? undefined : value;
  }
  private fail(field: string, rule: string): undefined {
    this.errors.push({ field, message: `${field} ${rule}` });
    return undefined;
  }
  int(name: string, min: number, max: number, required: boolean): number | undefined {
    const raw = this.raw(name);
    if (raw === undefined) return required ? this.fail(name, 'is required') : undefined;
    const n = /^[0-9]{1,9}$/.test(raw) ? Number(raw) : NaN;
    return n >= min && n <= max ? n : this.fail(name, `must be a whole number from ${min} to ${max}`);
  }
  text(name: string, max: number, required: boolean): string | undefined {
    const raw = this.raw(name);
    if (raw === undefined || (required && raw.trim() === '')) return required ? this.fail(name, 'is required') : undefined;
    return raw.length <= max ? raw : this.fail(name, `must be a text of at most ${max} characters`);
  }
  bool(name: string): boolean | undefined {
    const raw = this.raw(name)?.toLowerCase();
    if (raw === undefined) return undefined;
    return raw === 'true' ? true : raw === 'false' ? false : this.fail(name, 'must be true or false');
  }
  oneOf<T extends string>(name: string, allowed: readonly T[], required: boolean): T | undefined {
    const raw = this.raw(name)?.toLowerCase();
    if (raw === undefined) return required ? this.fail(name, 'is required') : undefined;
    return (allowed as readonly string[]).includes(raw) ? (raw as T) : this.fail(name, `must be one of ${allowed.join(', ')}`);
  }
  csv(name: string, maxItems: number, maxLength: number): string[] | undefined {
    const raw = this.raw(name);
    if (raw === undefined) return undefined;
    const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (items.length > maxItems || items.some((i) => i.length > maxLength)) {
      return this.fail(name, `must be a comma-separated list of at most ${maxItems} entries`);
    }
    return items.length > 0 ? items : undefined;
  }
  done<T>(value: T): Parsed<T> {
    return this.errors.length > 0 ? { ok: false, errors: this.errors } : { ok: true, value };
  }
}

/** Drops undefined members, so optional fields are absent rather than undefined. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export function parseSearch(query: ParamValues): Parsed<Api2SearchQuery> {
  const r = new Reader(query);
  const tokens = r.csv('include_primarycat', 3, 30)?.map((token) => token.toLowerCase());
  const categories = tokens?.flatMap((token) => {
    const neutral = API2_CATEGORY_TOKENS[token];
    return neutral ? [neutral] : [];
  });
  if (tokens && categories && categories.length !== tokens.length) {
    r.errors.push({ field: 'include_primarycat', message: `include_primarycat must list only ${Object.keys(API2_CATEGORY_TOKENS).join(', ')}` });
  }
  const value = defined<Api2SearchQuery>({
    titleKw: r.text('title_kw', 200, false),
    anyKw: r.text('any_kw', 200, false),
    categories,
    cuisine: r.text('cuisine', 200, false),
    includeIng: r.csv('include_ing', 3, 100),
    excludeIng: r.csv('exclude_ing', 3, 100),
    photos: r.bool('photos'),
    filter: r.oneOf<SearchFilter>('filter', ['favorites', 'try'], false),
    page: r.int('pg', 1, 100_000, true) ?? 0,
    perPage: r.int('rpp', 1, 50, true) ?? 0,
  });
  return r.done(value);
}

/** The paid-plan parameters a parsed search uses (legacy rule; photos=false restricts nothing). */
export function paidParamsOf(query: Api2SearchQuery): string[] {
  const used: [string, boolean][] = [
    ['include_primarycat', query.categories !== undefined],
    ['cuisine', query.cuisine !== undefined],
    ['include_ing', query.includeIng !== undefined],
    ['exclude_ing', query.excludeIng !== undefined],
    ['photos', query.photos === true],
  ];
  return used.filter(([, isUsed]) => isUsed).map(([name]) => name);
}

/** ReviewRequest and ReviewRequestLegacy (whose GUID and ParentID are ignored). */
export function parseReviewBody(body: ParamValues): Parsed<ReviewBody> {
  const r = new Reader(body);
  const value = {
    rating: r.int('StarRating', 1, 5, true) ?? 0,
    makeAgain: (r.oneOf<'yes' | 'no'>('MakeAgain', ['yes', 'no'], false) ?? 'notmake') as ReviewBody['makeAgain'],
    comment: r.text('Comment', 4000, true) ?? '',
    totalMinutes: r.int('TotalMinutes', 0, 100_000, false) ?? null,
    activeMinutes: r.int('ActiveMinutes', 0, 100_000, false) ?? null,
  };
  return r.done(value);
}

/** PostToGroceryListRecipeRequest and UpdateItemByGuidRequest. */
export function parseGroceryBody(body: ParamValues): Parsed<GroceryBody> {
  const r = new Reader(body);
  const quantity = r.text('quantity', 100, false);
  const unit = r.text('unit', 50, false);
  const value = defined<GroceryBody>({
    name: r.text('name', 200, true) ?? '',
    quantity: [quantity, unit].filter((part) => part !== undefined && part.trim() !== '').join(' '),
    notes: r.text('notes', 1000, false) ?? '',
    department: r.text('department', 100, false) ?? '',
    isChecked: r.bool('ischecked'),
    guid: r.text('guid', 36, false),
  });
  return r.done(value);
}

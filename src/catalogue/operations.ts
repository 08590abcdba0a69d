/**
 * The operation catalogue: the 16 operations of the legacy document (part 4), as data.
 *
 * Everything else reads this table: the route table compiles its path forms, the validator its
 * parameters, the config its operation ids, the usage log its names. Nothing branches on an
 * operation anywhere else.
 */
import type { z } from 'zod';
import * as rules from '../legacy/param-rules.js';
import type { ParamRule } from '../legacy/param-rules.js';
import { GroceryItemSchema, GroceryListSchema, RecipeSearchResultSchema, ReviewListSchema, ReviewSchema } from '../legacy/records.js';

export const OPERATION_IDS = [
  'reviews.create',
  'reviews.get',
  'reviews.list',
  'reviews.update',
  'reviews.delete',
  'grocery.create',
  'grocery.list',
  'grocery.update',
  'grocery.delete',
  'favorites.create',
  'favorites.list',
  'favorites.delete',
  'trysoons.create',
  'trysoons.list',
  'trysoons.delete',
  'recipes.search',
] as const;

export type OperationId = (typeof OPERATION_IDS)[number];
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How a path form relates to the legacy document:
 * - `canonical`: written in the document and regular;
 * - `malformed`: written in the document but irregular (POST for an update, no slash before the id);
 * - `regular`: not written in the document, the regular form a builder may add (part 4.2).
 */
export type PathFormKind = 'canonical' | 'malformed' | 'regular';

export interface PathForm {
  readonly method: Method;
  /** Template with `{id}` as the only placeholder, matched case-insensitively. */
  readonly template: string;
  readonly kind: PathFormKind;
}

/**
 * Where a parameter travels. `path`: in the path. `query`: in the query string only.
 * `input`: DECISION (the document is silent): in the query string, a JSON body or a
 * form-encoded body; see src/legacy/params.ts.
 */
export type ParamCarriage = 'path' | 'query' | 'input';

export interface ParamSpec {
  readonly name: string;
  readonly in: ParamCarriage;
  readonly required: boolean;
  readonly rule: ParamRule;
  /** Only on paid plans (part 4.5 and 5.3): enforced by the backend, which knows the plan. */
  readonly paidPlan?: boolean;
  /** A value that restricts nothing, so is allowed on every plan (DECISION: `photos=0`). */
  readonly neutralValue?: string;
  /** The value an absent parameter takes; rendered explicitly in what the gateway forwards. */
  readonly defaultValue?: string;
}

/**
 * What an operation answers on success: status, XML root element and, for arrays, item name, and
 * the schema of the record it carries (src/legacy/records.ts: member order and null rules for the
 * legacy JSON writer).
 */
export interface ResponseShape {
  readonly status: 200 | 204;
  readonly xmlRoot?: string;
  readonly xmlItem?: string;
  readonly record?: z.ZodType;
}

/** Who must be authenticated: every call carries api_key; `user` calls also carry HTTP Basic. */
export type AuthRequirement = 'key' | 'user' | 'key-optional-user';

export interface Operation {
  readonly id: OperationId;
  readonly resource: 'reviews' | 'grocery' | 'favorites' | 'trysoons' | 'recipes';
  readonly summary: string;
  /** The scheme the legacy document lists. Both are accepted; this is kept for the record. */
  readonly documentedScheme: 'http' | 'https';
  readonly forms: readonly PathForm[];
  readonly params: readonly ParamSpec[];
  /** Its success answer (the body records are src/legacy/records.ts). */
  readonly answer: ResponseShape;
  readonly auth: AuthRequirement;
  /** Safe operations may be cached, shadowed and retried; writes never are. */
  readonly safe: boolean;
  /** `pages`: its GET answers are kept in the page cache (src/cache/search-cache.ts). */
  readonly cache?: 'pages';
  /** What a successful write changes in cached pages: every page, or the writing user's. */
  readonly drops?: 'all-pages' | 'user-pages';
}

const p = (
  name: string,
  carriage: ParamCarriage,
  required: boolean,
  rule: ParamRule,
  paidPlan = false,
): ParamSpec => ({ name, in: carriage, required, rule, ...(paidPlan ? { paidPlan } : {}) });

const reviewFields: readonly ParamSpec[] = [
  p('rid', 'input', true, rules.positiveId),
  p('rating', 'input', true, rules.rating),
  p('makeagain', 'input', true, rules.makeAgain),
  p('message', 'input', true, rules.text(4000)),
  p('totaltime', 'input', false, rules.minutes),
  p('activetime', 'input', false, rules.minutes),
];

const groceryFields: readonly ParamSpec[] = [
  // DECISION: quantity ("value, type not stated") is a display text such as "1 lb".
  p('quantity', 'input', true, rules.text(100)),
  p('name', 'input', true, rules.text(200)),
  p('notes', 'input', false, rules.optionalText(1000)),
  p('department', 'input', false, rules.optionalText(100)),
];

const ridOnly: readonly ParamSpec[] = [p('rid', 'input', true, rules.positiveId)];

export const OPERATIONS: readonly Operation[] = [
  {
    id: 'reviews.create',
    resource: 'reviews',
    summary: 'Create a review for an existing recipe',
    documentedScheme: 'https',
    forms: [{ method: 'POST', template: '/reviews', kind: 'canonical' }],
    params: reviewFields,
    answer: { status: 200, xmlRoot: 'Review', record: ReviewSchema },
    auth: 'user',
    safe: false,
    // StarRating and ReviewCount show on every search page.
    drops: 'all-pages',
  },
  {
    id: 'reviews.get',
    resource: 'reviews',
    summary: 'Read one review',
    documentedScheme: 'https',
    forms: [{ method: 'GET', template: '/review/{id}', kind: 'canonical' }],
    params: [p('id', 'path', true, rules.positiveId)],
    // DECISION: "most review requests need the user" (part 1): reads do not, writes do.
    answer: { status: 200, xmlRoot: 'Review', record: ReviewSchema },
    auth: 'key',
    safe: true,
  },
  {
    id: 'reviews.list',
    resource: 'reviews',
    summary: 'Read all reviews of a recipe',
    documentedScheme: 'https',
    forms: [{ method: 'GET', template: '/reviews', kind: 'canonical' }],
    params: [p('rid', 'query', true, rules.positiveId)],
    answer: { status: 200, xmlRoot: 'ArrayOfReview', xmlItem: 'Review', record: ReviewListSchema },
    auth: 'key',
    safe: true,
  },
  {
    id: 'reviews.update',
    resource: 'reviews',
    summary: 'Update a review',
    documentedScheme: 'https',
    forms: [{ method: 'PUT', template: '/review/{id}', kind: 'canonical' }],
    params: [p('id', 'path', true, rules.positiveId), ...reviewFields],
    answer: { status: 200, xmlRoot: 'Review', record: ReviewSchema },
    auth: 'user',
    safe: false,
    // StarRating and ReviewCount show on every search page.
    drops: 'all-pages',
  },
  {
    id: 'reviews.delete',
    resource: 'reviews',
    summary: 'Delete a review',
    documentedScheme: 'https',
    forms: [{ method: 'DELETE', template: '/review/{id}', kind: 'canonical' }],
    // rid is not in the legacy document: an optional hint the api2 mapping can use (mappings/reviews.ts).
    params: [p('id', 'path', true, rules.positiveId), p('rid', 'input', false, rules.positiveId)],
    answer: { status: 204 },
    auth: 'user',
    safe: false,
    // StarRating and ReviewCount show on every search page.
    drops: 'all-pages',
  },
  {
    id: 'grocery.create',
    resource: 'grocery',
    summary: 'Add a grocery list item for the authenticated user',
    documentedScheme: 'http',
    forms: [{ method: 'POST', template: '/grocerylist', kind: 'canonical' }],
    params: groceryFields,
    answer: { status: 200, xmlRoot: 'Item', record: GroceryItemSchema },
    auth: 'user',
    safe: false,
  },
  {
    id: 'grocery.list',
    resource: 'grocery',
    summary: 'Read all grocery list items of the authenticated user',
    documentedScheme: 'http',
    forms: [{ method: 'GET', template: '/grocerylist', kind: 'canonical' }],
    params: [],
    answer: { status: 200, xmlRoot: 'GroceryList', record: GroceryListSchema },
    auth: 'user',
    safe: true,
  },
  {
    id: 'grocery.update',
    resource: 'grocery',
    summary: 'Update a grocery list item of the authenticated user',
    documentedScheme: 'http',
    forms: [
      { method: 'POST', template: '/grocerylist/{id}', kind: 'malformed' },
      { method: 'PUT', template: '/grocerylist/{id}', kind: 'regular' },
    ],
    params: [p('id', 'path', true, rules.groceryItemId), ...groceryFields],
    answer: { status: 200, xmlRoot: 'Item', record: GroceryItemSchema },
    auth: 'user',
    safe: false,
  },
  {
    id: 'grocery.delete',
    resource: 'grocery',
    summary: 'Delete a grocery list item of the authenticated user',
    documentedScheme: 'http',
    forms: [
      { method: 'DELETE', template: '/grocerylist{id}', kind: 'malformed' },
      { method: 'DELETE', template: '/grocerylist/{id}', kind: 'regular' },
    ],
    params: [p('id', 'path', true, rules.groceryItemId)],
    answer: { status: 204 },
    auth: 'user',
    safe: false,
  },
  {
    id: 'favorites.create',
    resource: 'favorites',
    summary: 'Add a favorite for the authenticated user',
    documentedScheme: 'https',
    forms: [{ method: 'POST', template: '/favorites', kind: 'canonical' }],
    params: ridOnly,
    answer: { status: 204 },
    auth: 'user',
    safe: false,
    // IsBookmark shows on the user's own search pages.
    drops: 'user-pages',
  },
  {
    id: 'favorites.list',
    resource: 'favorites',
    summary: 'Read all favorites of the authenticated user',
    documentedScheme: 'https',
    forms: [{ method: 'GET', template: '/favorites', kind: 'canonical' }],
    params: [],
    answer: { status: 200, xmlRoot: 'RecipeSearchResult', record: RecipeSearchResultSchema },
    auth: 'user',
    safe: true,
  },
  {
    id: 'favorites.delete',
    resource: 'favorites',
    summary: 'Delete a favorite of the authenticated user',
    documentedScheme: 'https',
    forms: [{ method: 'DELETE', template: '/favorites', kind: 'canonical' }],
    params: ridOnly,
    answer: { status: 204 },
    auth: 'user',
    safe: false,
    // IsBookmark shows on the user's own search pages.
    drops: 'user-pages',
  },
  {
    id: 'trysoons.create',
    resource: 'trysoons',
    summary: 'Add a try soon for the authenticated user',
    documentedScheme: 'http',
    forms: [{ method: 'POST', template: '/trysoons', kind: 'canonical' }],
    params: ridOnly,
    answer: { status: 204 },
    auth: 'user',
    safe: false,
  },
  {
    id: 'trysoons.list',
    resource: 'trysoons',
    summary: 'Read all try soons of the authenticated user',
    documentedScheme: 'http',
    forms: [{ method: 'GET', template: '/trysoons', kind: 'canonical' }],
    params: [],
    answer: { status: 200, xmlRoot: 'RecipeSearchResult', record: RecipeSearchResultSchema },
    auth: 'user',
    safe: true,
  },
  {
    id: 'trysoons.delete',
    resource: 'trysoons',
    summary: 'Delete a try soon of the authenticated user',
    documentedScheme: 'http',
    forms: [{ method: 'DELETE', template: '/trysoons', kind: 'canonical' }],
    params: ridOnly,
    answer: { status: 204 },
    auth: 'user',
    safe: false,
  },
  {
    id: 'recipes.search',
    resource: 'recipes',
    summary: 'Search recipes with filters',
    documentedScheme: 'https',
    forms: [{ method: 'GET', template: '/recipes', kind: 'canonical' }],
    params: [
      p('title_kw', 'query', false, rules.keyword),
      p('any_kw', 'query', false, rules.keyword),
      p('include_primarycat', 'query', false, rules.primaryCategory, true),
      p('cuisine', 'query', false, rules.cuisine, true),
      p('include_ing', 'query', false, rules.ingredientList, true),
      p('exclude_ing', 'query', false, rules.ingredientList, true),
      { ...p('photos', 'query', false, rules.photosFlag, true), neutralValue: '0' },
      // DECISION: legacy defaults pg 1, rpp 10 (api2-notes, paging [I]); the sandbox and mappings agree.
      { ...p('pg', 'query', false, rules.page), defaultValue: '1' },
      { ...p('rpp', 'query', false, rules.resultsPerPage), defaultValue: '10' },
    ],
    // DECISION: search needs no user (part 5.4 is silent); a user, when given, fills IsBookmark.
    answer: { status: 200, xmlRoot: 'RecipeSearchResult', record: RecipeSearchResultSchema },
    auth: 'key-optional-user',
    safe: true,
    cache: 'pages',
  },
];

const byId = new Map<OperationId, Operation>(OPERATIONS.map((op) => [op.id, op]));

export function operationById(id: OperationId): Operation {
  const op = byId.get(id);
  if (!op) throw new Error(`unknown operation ${id}`);
  return op;
}

export function isOperationId(value: string): value is OperationId {
  return byId.has(value as OperationId);
}

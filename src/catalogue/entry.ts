/**
 * The shape of a catalogue entry (src/catalogue/operations.ts holds the entries). Generic in its
 * id so that the catalogue can name its ids as a union (OperationId) while the modules an entry
 * refers to (its api2 mapping) import these types without importing the catalogue back. What the
 * sandbox does for an operation is the sandbox's own table (src/sandbox/behaviour.ts), not a
 * fact of the entry.
 */
import type { z } from 'zod';
import type { LegacyCacheControl } from '../legacy/answer-terms.js';
import type { ParamRule } from '../legacy/param-rules.js';
import type { OperationMapping } from '../../mappings/types.js';

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
 * form-encoded body; see src/request/body-params.ts.
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
 * What an operation answers on success, as the legacy backend answers it (the sandbox legacy
 * backend, and the gateway answering from api2, both render it): status, XML root element and, for
 * arrays, item name, the schema of the record it carries (src/legacy/records.ts: member order and
 * null rules for the legacy JSON writer), and its Cache-Control (src/legacy/answer-policy.ts).
 */
export interface ResponseShape {
  readonly status: 200 | 204;
  readonly xmlRoot?: string;
  readonly xmlItem?: string;
  readonly record?: z.ZodType;
  /** Default `private`. */
  readonly cacheControl?: LegacyCacheControl;
}

/** Who must be authenticated: every call carries api_key; `user` calls also carry HTTP Basic. */
export type AuthRequirement = 'key' | 'user' | 'key-optional-user';

/**
 * Whether api2 can answer the operation: its mapping (mappings/), or the reason it stays on the
 * legacy backend (api2 has no such endpoint, ...). Every operation is one or the other.
 */
export type Api2Route = { readonly mapping: OperationMapping } | { readonly legacyOnly: string };

export interface OperationEntry<Id extends string = string> {
  readonly id: Id;
  readonly resource: string;
  readonly summary: string;
  /** The scheme the legacy document lists. Both are accepted; this is kept for the record. */
  readonly documentedScheme: 'http' | 'https';
  readonly forms: readonly PathForm[];
  readonly params: readonly ParamSpec[];
  /** Its success answer, as the legacy backend gives it: shape, record, Cache-Control. */
  readonly answer: ResponseShape;
  readonly auth: AuthRequirement;
  /** Safe operations may be cached, shadowed and retried; writes never are. */
  readonly safe: boolean;
  /** `pages`: its GET answers are kept in the page cache (src/cache/search-cache.ts). */
  readonly cache?: 'pages';
  /** What a successful write changes in cached pages: every page, or the writing user's. */
  readonly drops?: 'all-pages' | 'user-pages';
  readonly api2: Api2Route;
}

/** One entry, its id kept as a literal (so that the catalogue's ids form a union type). */
export function entry<const Id extends string>(operation: OperationEntry<Id>): OperationEntry<Id> {
  return operation;
}

/** A parameter spec, briefly: `param('rid', 'input', true, rules.positiveId)`. */
export const param = (name: string, carriage: ParamCarriage, required: boolean, rule: ParamRule, paidPlan = false): ParamSpec => ({
  name,
  in: carriage,
  required,
  rule,
  ...(paidPlan ? { paidPlan } : {}),
});

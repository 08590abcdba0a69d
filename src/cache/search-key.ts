/**
 * Canonical search cache keys. Built from the VALIDATED parameters (src/legacy/request-check.ts),
 * so parameter order, repeated separators, percent-encoding, the `/v1/` prefix and the path's
 * case never reach the key; `cuisine` and the category are lower-cased, ingredient lists trimmed
 * and sorted, and pg/rpp take their defaults. The key is a JSON array (structured, so no two
 * different requests can produce the same string), and never holds a secret: the api_key is not
 * in it, only the plan class; a user appears only as a keyed hash of their credentials.
 */

export interface SearchKeyContext {
  /** Who answers: legacy bytes and api2-mapped bytes are different answers. */
  readonly mode: string;
  /** JSON or XML. */
  readonly json: boolean;
  /** Whether the answer may be gzip-encoded (pass-through keeps the upstream's encoding). */
  readonly gzip: boolean;
  /** `paid` when paid-plan parameters are used, else `any`: without them every plan gets the same page. */
  readonly plan: 'any' | 'paid';
  /** Keyed hash of the Authorization header (IsBookmark depends on the user), or null. */
  readonly userHash: string | null;
}

/** DECISION: legacy defaults (src/sandbox and mappings/search.ts agree): pg 1, rpp 10. */
const DEFAULT_PG = 1;
const DEFAULT_RPP = 10;

function sortedList(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  return value.map((entry) => String(entry).trim().toLowerCase()).sort();
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function searchCacheKey(values: Readonly<Record<string, unknown>>, context: SearchKeyContext): string {
  return JSON.stringify([
    'recipes.search',
    context.mode,
    context.json ? 'json' : 'xml',
    context.gzip ? 'gzip' : 'identity',
    context.plan,
    context.userHash,
    text(values['title_kw']),
    text(values['any_kw']),
    text(values['include_primarycat']),
    text(values['cuisine'])?.toLowerCase() ?? null,
    sortedList(values['include_ing']),
    sortedList(values['exclude_ing']),
    values['photos'] === true,
    (values['pg'] as number | undefined) ?? DEFAULT_PG,
    (values['rpp'] as number | undefined) ?? DEFAULT_RPP,
  ]);
}

/**
 * The canned answers the benchmark upstreams serve, built once, deterministically, from the sandbox
 * dataset: the legacy search page (`GET /recipes`, legacy RecipeSearchResult) and the api2 search
 * page (api2 RecipeSearchResult) for the same recipes, so the mapped legacy page has the same
 * entries as the direct one.
 *
 * DECISION: a page holds the dataset's "soup" recipes, as many as fit in PAGE_TARGET_BYTES of
 * legacy JSON (about 13 entries; a legacy RecipeInfo is about 900 bytes, so 50 entries would be
 * ~44 KB, not the ~12 KB the benchmark calls for). ResultCount is the number of entries, so the
 * page is consistent with `rpp=50`.
 */
import { buildDataset, toRecipeInfo } from '../src/dataset/dataset.js';
import type { NeutralRecipe, ReviewStats, SandboxUser } from '../src/dataset/dataset.js';
import { toRecipeInfox } from '../src/sandbox/api2-records.js';
import type { RecipeInfo } from '../src/legacy/records.js';

export const PAGE_TARGET_BYTES = 12 * 1024;
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
/** What every scenario requests. */
export const SEARCH_TARGET = '/recipes?title_kw=soup&pg=1&rpp=50&api_key=bench-key';
export const REQUEST_HEADERS: Readonly<Record<string, string>> = { accept: 'application/json' };

export interface CannedPages {
  /** Legacy RecipeSearchResult, JSON bytes. */
  readonly legacy: Buffer;
  /** api2 RecipeSearchResult of the same recipes, JSON bytes. */
  readonly api2: Buffer;
  readonly entries: number;
}

let built: CannedPages | undefined;

export function cannedPages(): CannedPages {
  built ??= build();
  return built;
}

function build(): CannedPages {
  const dataset = buildDataset();
  const users = new Map<number, SandboxUser>(dataset.users.map((user) => [user.userId, user]));
  const ratings = new Map<number, number[]>();
  for (const review of dataset.reviews) {
    const list = ratings.get(review.recipeId) ?? [];
    list.push(review.rating);
    ratings.set(review.recipeId, list);
  }
  const statsOf = (recipe: NeutralRecipe): ReviewStats => {
    const list = ratings.get(recipe.id) ?? [];
    return { count: list.length, average: list.length === 0 ? 0 : list.reduce((a, b) => a + b, 0) / list.length };
  };
  const posterOf = (recipe: NeutralRecipe): SandboxUser | null =>
    recipe.posterUserId === null ? null : (users.get(recipe.posterUserId) ?? null);

  const soups = dataset.recipes.filter((recipe) => /soup/i.test(recipe.title));
  const legacyPage = (results: RecipeInfo[]) => JSON.stringify({ ResultCount: results.length, Results: results, SpellSuggest: null });
  const chosen: NeutralRecipe[] = [];
  const infos: RecipeInfo[] = [];
  for (const recipe of soups) {
    const info = toRecipeInfo(recipe, posterOf(recipe), statsOf(recipe), null);
    if (infos.length > 0 && Buffer.byteLength(legacyPage([...infos, info])) > PAGE_TARGET_BYTES) break;
    chosen.push(recipe);
    infos.push(info);
  }
  const api2Results = chosen.map((recipe) => toRecipeInfox(recipe, posterOf(recipe), statsOf(recipe), null));
  return {
    legacy: Buffer.from(legacyPage(infos)),
    api2: Buffer.from(JSON.stringify({ ResultCount: api2Results.length, Results: api2Results })),
    entries: chosen.length,
  };
}

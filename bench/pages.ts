/**
 * The canned legacy and api2 search pages of the same recipes, from the sandbox dataset. DECISION: the
 * dataset's "soup" recipes, as many as fit in PAGE_TARGET_BYTES of legacy JSON (the ~12 KB asked for).
 */
import { buildDataset, toRecipeInfo } from '../src/sandbox/dataset/dataset.js';
import type { NeutralRecipe, ReviewStats, SandboxUser } from '../src/sandbox/dataset/dataset.js';
import { toRecipeInfox } from '../src/sandbox/api2-records.js';
import type { RecipeInfo } from '../src/legacy/records.js';

export const PAGE_TARGET_BYTES = 12 * 1024;
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
/** What every scenario requests. */
export const SEARCH_TARGET = '/recipes?title_kw=soup&pg=1&rpp=50&api_key=bench-key';
export const REQUEST_HEADERS: Readonly<Record<string, string>> = { accept: 'application/json' };

/** The legacy and the api2 RecipeSearchResult of the same recipes, as JSON bytes. */
export type CannedPages = { readonly legacy: Buffer; readonly api2: Buffer; readonly entries: number };

let built: CannedPages | undefined;

export const cannedPages = (): CannedPages => (built ??= build());

function build(): CannedPages {
  const dataset = buildDataset();
  const users = new Map<number, SandboxUser>(dataset.users.map((user) => [user.userId, user]));
  const ratings = new Map<number, number[]>();
  for (const review of dataset.reviews) ratings.set(review.recipeId, [...(ratings.get(review.recipeId) ?? []), review.rating]);
  const statsOf = (recipe: NeutralRecipe): ReviewStats => {
    const list = ratings.get(recipe.id) ?? [];
    return { count: list.length, average: list.length === 0 ? 0 : list.reduce((a, b) => a + b, 0) / list.length };
  };
  const posterOf = (recipe: NeutralRecipe): SandboxUser | null => (recipe.posterUserId === null ? null : (users.get(recipe.posterUserId) ?? null));

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

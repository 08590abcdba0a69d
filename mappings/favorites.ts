/**
 * Favorites and try soons. Reads go through api2 search with `filter=favorites|try`
 * (api2-notes [C]); the legacy answer is the whole list, unpaged, so the adapter pages through.
 * Adding and removing have no api2 endpoint (api2-notes [C], by absence): their catalogue entries
 * (src/catalogue/entries/lists.ts) say so.
 */
import { RecipeSearchResult, isRecipeSearchResult } from './api2-schemas.js';
import type { RecipeInfox } from './api2-schemas.js';
import { expectOk } from './api2-call.js';
import { MappingRefusal, parseApi2 } from './errors.js';
import { RECIPE_INFO_INFERENCES, legacySearchResultOf, recipeInfoLosses } from './recipe-info.js';
import type { OperationMapping } from './types.js';

/** DECISION: pages of 50 (the largest legacy rpp), at most 40 pages (2,000 entries) per list. */
export const LIST_PAGE_SIZE = 50;
export const LIST_MAX_PAGES = 40;

function listMapping(filter: 'favorites' | 'try'): OperationMapping {
  return {
    api2Calls: [`GET /recipes?filter=${filter} (every page)`],
    losses: recipeInfoLosses('Results[]'),
    differences: [`a list longer than ${LIST_PAGE_SIZE * LIST_MAX_PAGES} entries is refused with 409 rather than read in full`],
    inferences: RECIPE_INFO_INFERENCES,
    async run(_call, api2, { options }) {
      const items: RecipeInfox[] = [];
      let total = 0;
      for (let pg = 1; pg <= LIST_MAX_PAGES; pg++) {
        const reply = await expectOk(api2, { method: 'GET', path: '/recipes', query: { filter, pg, rpp: LIST_PAGE_SIZE } });
        const page = parseApi2(RecipeSearchResult, reply.body, `GET /recipes?filter=${filter}`, isRecipeSearchResult);
        const results = page.Results ?? [];
        total = page.ResultCount ?? results.length;
        items.push(...results);
        if (results.length < LIST_PAGE_SIZE || items.length >= total) {
          return { status: 200, body: legacySearchResultOf(items.length, items, undefined, options) };
        }
      }
      throw new MappingRefusal(409, `The ${filter} list has ${total} entries; through api2 the gateway reads at most ${LIST_PAGE_SIZE * LIST_MAX_PAGES}.`);
    },
  };
}

export const favoritesListMapping = listMapping('favorites');
export const trySoonsListMapping = listMapping('try');

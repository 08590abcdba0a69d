/**
 * recipes.search → `GET /recipes` (api2 takes the legacy parameters under the same names,
 * api2-notes [C]); api2 RecipeSearchResult → the legacy search result of part 2.5.
 */
import type { PrimaryCategoryToken } from '../src/legacy/param-rules.js';
import { RecipeSearchResult, isRecipeSearchResult } from './api2-schemas.js';
import { parseApi2 } from './errors.js';
import { RECIPE_INFO_INFERENCES, legacySearchResultOf, recipeInfoLosses } from './recipe-info.js';
import { expectOk } from './api2-call.js';
import type { Api2Request, LegacyCall, OperationMapping } from './types.js';

/** include_primarycat tokens differ between the versions (api2-notes [C]). */
export const API2_CATEGORY: Readonly<Record<PrimaryCategoryToken, string>> = {
  dessert: 'desserts',
  appetizer: 'appetizers',
  bread: 'bread',
  breakfast: 'breakfast',
  drinks: 'drinks',
  'main dish': 'maindish',
  salad: 'salads',
  'side dish': 'sidedish',
  soup: 'soups',
  marinade: 'marinades',
  other: 'other',
};

/** DECISION (legacy defaults, api2 requires both): pg 1, rpp 10. */
export const DEFAULT_PAGE = 1;
export const DEFAULT_RPP = 10;

/** Legacy search parameters (validated) → the api2 search request. Pure. */
export function api2SearchRequest(values: LegacyCall['values']): Api2Request {
  const list = (name: string) => {
    const value = values[name] as string[] | undefined;
    return value && value.length > 0 ? value.join(',') : undefined;
  };
  const category = values['include_primarycat'] as PrimaryCategoryToken | undefined;
  return {
    method: 'GET',
    path: '/recipes',
    query: {
      title_kw: values['title_kw'] as string | undefined,
      any_kw: values['any_kw'] as string | undefined,
      include_primarycat: category ? API2_CATEGORY[category] : undefined,
      cuisine: values['cuisine'] as string | undefined,
      include_ing: list('include_ing'),
      exclude_ing: list('exclude_ing'),
      // photos=1 → true; photos=0 restricts nothing and is not sent.
      photos: values['photos'] === true ? true : undefined,
      pg: (values['pg'] as number | undefined) ?? DEFAULT_PAGE,
      rpp: (values['rpp'] as number | undefined) ?? DEFAULT_RPP,
    },
  };
}

export const searchMapping: OperationMapping = {
  api2Calls: ['GET /recipes'],
  losses: recipeInfoLosses('Results[]'),
  differences: [],
  inferences: RECIPE_INFO_INFERENCES,
  async run(call, api2, { options }) {
    const request = api2SearchRequest(call.values);
    const reply = await expectOk(api2, request);
    const page = parseApi2(RecipeSearchResult, reply.body, 'GET /recipes', isRecipeSearchResult);
    const items = page.Results ?? [];
    return { status: 200, body: legacySearchResultOf(page.ResultCount ?? items.length, items, page.SpellSuggest, options) };
  },
};

/** The recipe operations (legacy document part 4.5). */
import { searchMapping } from '../../../mappings/search.js';
import type { PrimaryCategoryToken } from '../../legacy/param-rules.js';
import * as rules from '../../legacy/param-rules.js';
import { RecipeSearchResultSchema } from '../../legacy/records.js';
import { done, viewerOf } from '../../dataset/action.js';
import type { Values } from '../../dataset/action.js';
import type { SearchQuery } from '../../dataset/legacy-store.js';
import { entry, param } from '../entry.js';

/** The sandbox's search query from the validated parameters. */
function searchQuery(v: Values): SearchQuery {
  const titleKw = v.optionalText('title_kw');
  const anyKw = v.optionalText('any_kw');
  const cuisine = v.optionalText('cuisine');
  const category = v.optionalText('include_primarycat');
  const includeIng = v.optionalList('include_ing');
  const excludeIng = v.optionalList('exclude_ing');
  const photos = v.optionalBoolean('photos');
  return {
    ...(titleKw ? { titleKw } : {}),
    ...(anyKw ? { anyKw } : {}),
    ...(cuisine ? { cuisine } : {}),
    // The primaryCategory rule yields one of PRIMARY_CATEGORY_TOKENS.
    ...(category ? { category: category as PrimaryCategoryToken } : {}),
    ...(includeIng ? { includeIng } : {}),
    ...(excludeIng ? { excludeIng } : {}),
    ...(photos !== undefined ? { photos } : {}),
    page: v.optionalNumber('pg') ?? 1,
    perPage: v.optionalNumber('rpp') ?? 10,
  };
}

export const RECIPE_OPERATIONS = [
  entry({
    id: 'recipes.search',
    resource: 'recipes',
    summary: 'Search recipes with filters',
    documentedScheme: 'https',
    forms: [{ method: 'GET', template: '/recipes', kind: 'canonical' }],
    params: [
      param('title_kw', 'query', false, rules.keyword),
      param('any_kw', 'query', false, rules.keyword),
      param('include_primarycat', 'query', false, rules.primaryCategory, true),
      param('cuisine', 'query', false, rules.cuisine, true),
      param('include_ing', 'query', false, rules.ingredientList, true),
      param('exclude_ing', 'query', false, rules.ingredientList, true),
      { ...param('photos', 'query', false, rules.photosFlag, true), neutralValue: '0' },
      // DECISION: legacy defaults pg 1, rpp 10 (api2-notes, paging [I]); the sandbox and mappings agree.
      { ...param('pg', 'query', false, rules.page), defaultValue: '1' },
      { ...param('rpp', 'query', false, rules.resultsPerPage), defaultValue: '10' },
    ],
    // DECISION: search needs no user (part 5.4 is silent); a user, when given, fills IsBookmark.
    answer: { status: 200, xmlRoot: 'RecipeSearchResult', record: RecipeSearchResultSchema, cacheControl: 'public' },
    auth: 'key-optional-user',
    safe: true,
    cache: 'pages',
    api2: { mapping: searchMapping },
    sandbox: {
      act: (s, v, u) => done(s.search(searchQuery(v), viewerOf(u))),
      example: { method: 'GET', target: '/recipes?title_kw=soup&rpp=5' },
    },
  }),
] as const;

/** The recipe operations (legacy document part 4.5). */
import { searchMapping } from '../../../mappings/search.js';
import * as rules from '../../legacy/param-rules.js';
import { RecipeSearchResultSchema } from '../../legacy/records.js';
import { entry, param } from '../entry.js';

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
  }),
] as const;

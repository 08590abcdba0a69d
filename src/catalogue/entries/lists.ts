/**
 * Favorites and try soons (legacy document parts 4.3 and 4.4). Reads are mapped to api2 search
 * (mappings/favorites.ts); adding and removing have no api2 endpoint, so they stay on the legacy
 * backend.
 */
import { favoritesListMapping, trySoonsListMapping } from '../../../mappings/favorites.js';
import * as rules from '../../legacy/param-rules.js';
import { RecipeSearchResultSchema } from '../../legacy/records.js';
import { entry, param } from '../entry.js';
import type { ParamSpec } from '../entry.js';

const ridOnly: readonly ParamSpec[] = [param('rid', 'input', true, rules.positiveId)];

const NO_ENDPOINT = 'api2 publishes no endpoint to add or remove a favorite or a try soon (api2-notes, favorites and try soons)';

export const LIST_OPERATIONS = [
  entry({
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
    api2: { legacyOnly: NO_ENDPOINT },
  }),
  entry({
    id: 'favorites.list',
    resource: 'favorites',
    summary: 'Read all favorites of the authenticated user',
    documentedScheme: 'https',
    forms: [{ method: 'GET', template: '/favorites', kind: 'canonical' }],
    params: [],
    answer: { status: 200, xmlRoot: 'RecipeSearchResult', record: RecipeSearchResultSchema },
    auth: 'user',
    safe: true,
    api2: { mapping: favoritesListMapping },
  }),
  entry({
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
    api2: { legacyOnly: NO_ENDPOINT },
  }),
  entry({
    id: 'trysoons.create',
    resource: 'trysoons',
    summary: 'Add a try soon for the authenticated user',
    documentedScheme: 'http',
    forms: [{ method: 'POST', template: '/trysoons', kind: 'canonical' }],
    params: ridOnly,
    answer: { status: 204 },
    auth: 'user',
    safe: false,
    api2: { legacyOnly: NO_ENDPOINT },
  }),
  entry({
    id: 'trysoons.list',
    resource: 'trysoons',
    summary: 'Read all try soons of the authenticated user',
    documentedScheme: 'http',
    forms: [{ method: 'GET', template: '/trysoons', kind: 'canonical' }],
    params: [],
    answer: { status: 200, xmlRoot: 'RecipeSearchResult', record: RecipeSearchResultSchema },
    auth: 'user',
    safe: true,
    api2: { mapping: trySoonsListMapping },
  }),
  entry({
    id: 'trysoons.delete',
    resource: 'trysoons',
    summary: 'Delete a try soon of the authenticated user',
    documentedScheme: 'http',
    forms: [{ method: 'DELETE', template: '/trysoons', kind: 'canonical' }],
    params: ridOnly,
    answer: { status: 204 },
    auth: 'user',
    safe: false,
    api2: { legacyOnly: NO_ENDPOINT },
  }),
] as const;

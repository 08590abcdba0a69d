/**
 * The api2 search page is checked in place (mappings/api2-schemas.ts, isRecipeSearchResult) and
 * taken as it is when the check says yes; anything else goes through the zod schema. This holds
 * that the check never says yes to what the schema refuses, says yes to the pages api2 sends, that
 * a page taken as it is maps to the same legacy answer as the schema's copy, and that a refusal is
 * still the schema's (same path, same message).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecipeSearchResult, isRecipeSearchResult } from '../mappings/api2-schemas.js';
import { Api2ShapeError, parseApi2 } from '../mappings/errors.js';
import { legacySearchResultOf } from '../mappings/recipe-info.js';
import { buildDataset } from '../src/sandbox/dataset/dataset.js';
import { toRecipeInfox } from '../src/sandbox/api2-records.js';

const OPTIONS = { noPhotoImageUrl: 'https://images.example/no-photo.png' };

/** Values of every JSON kind, and a few that JSON cannot carry, near the edges the schema draws. */
const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(2 ** 53, -(2 ** 53), 1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 1e300),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.constantFrom('2012-03-05T21:00:54.368Z', '2012-03-05', 'not a date', '', '1'),
  fc.constant([]),
  fc.constant({}),
);

const userInfo = fc.record(
  { FirstName: anyValue, LastName: anyValue, PhotoUrl: anyValue, UserID: anyValue, UserName: anyValue, Extra: anyValue },
  { requiredKeys: [] },
);

const recipeKeys = [
  'Category', 'CreationDate', 'Cuisine', 'HasVideos', 'IsBookmark', 'IsPrivate', 'IsRecipeScan', 'Microcategory', 'PhotoUrl',
  'RecipeID', 'ReviewCount', 'Servings', 'StarRating', 'Subcategory', 'Title', 'TotalTries', 'WebURL', 'Extra',
] as const;

/** Mostly valid entries, each member sometimes replaced by any value. */
function validRecipe(): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      Category: fc.string(), CreationDate: fc.constantFrom('2012-03-05T21:00:54.368Z', '2020-01-01'), Cuisine: fc.string(),
      HasVideos: fc.boolean(), IsBookmark: fc.boolean(), IsPrivate: fc.boolean(), IsRecipeScan: fc.boolean(), Microcategory: fc.string(),
      PhotoUrl: fc.webUrl(), RecipeID: fc.integer({ min: 1 }), ReviewCount: fc.nat(), Servings: fc.double({ min: 0, max: 100, noNaN: true }),
      StarRating: fc.double({ min: 0, max: 5, noNaN: true }), Subcategory: fc.string(), Title: fc.string(), TotalTries: fc.nat(), WebURL: fc.webUrl(),
      Poster: fc.record({ FirstName: fc.string(), UserID: fc.nat(), UserName: fc.string(), PhotoUrl: fc.webUrl() }, { requiredKeys: [] }),
    },
    { requiredKeys: ['RecipeID'] },
  );
}

const nearlyValidRecipe = fc
  .tuple(validRecipe(), fc.option(fc.tuple(fc.constantFrom(...recipeKeys, 'Poster'), fc.oneof(anyValue, userInfo)), { nil: undefined }))
  .map(([recipe, swap]) => (swap ? { ...recipe, [swap[0]]: swap[1] } : recipe));

const page = fc.record(
  {
    ResultCount: fc.oneof(fc.nat(), anyValue),
    Results: fc.oneof(fc.array(nearlyValidRecipe, { maxLength: 4 }), anyValue),
    SpellSuggest: fc.oneof(fc.string(), anyValue),
  },
  { requiredKeys: [] },
);

describe('the api2 search page checked in place', () => {
  it('never says yes to a page the schema refuses, and says yes to valid pages', () => {
    let yes = 0;
    let no = 0;
    fc.assert(
      fc.property(fc.oneof(page, anyValue), (value) => {
        const accepted = RecipeSearchResult.safeParse(value).success;
        if (isRecipeSearchResult(value)) {
          yes += 1;
          return accepted;
        }
        no += 1;
        return true;
      }),
      { numRuns: 5000 },
    );
    expect(yes).toBeGreaterThan(100);
    expect(no).toBeGreaterThan(100);
    fc.assert(fc.property(fc.array(validRecipe(), { maxLength: 4 }), (results) => isRecipeSearchResult({ ResultCount: results.length, Results: results })));
  });

  it('maps a page taken as it is to the same legacy answer as the schema copy of it', () => {
    fc.assert(
      fc.property(page, (value) => {
        if (!isRecipeSearchResult(value)) return true;
        const copy = RecipeSearchResult.parse(value);
        const of = (p: typeof copy) => legacySearchResultOf(p.ResultCount ?? (p.Results ?? []).length, p.Results ?? [], p.SpellSuggest, OPTIONS);
        expect(of(value)).toStrictEqual(of(copy));
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it('says yes to the pages the sandbox api2 backend sends', () => {
    const dataset = buildDataset();
    const results = dataset.recipes.slice(0, 50).map((recipe) => toRecipeInfox(recipe, null, { count: 2, average: 3.5 }, null));
    const sent = JSON.parse(JSON.stringify({ ResultCount: 1500, Results: results })) as unknown;
    expect(isRecipeSearchResult(sent)).toBe(true);
    expect(parseApi2(RecipeSearchResult, sent, 'GET /recipes', isRecipeSearchResult)).toBe(sent);
  });

  it('refuses an off-schema page with the schema own path and message', () => {
    fc.assert(
      fc.property(page, (value) => {
        if (RecipeSearchResult.safeParse(value).success) return true;
        const error = (accepts?: typeof isRecipeSearchResult): Api2ShapeError => {
          try {
            parseApi2(RecipeSearchResult, value, 'GET /recipes', accepts);
          } catch (caught) {
            return caught as Api2ShapeError;
          }
          throw new Error('accepted');
        };
        const [checked, plain] = [error(isRecipeSearchResult), error()];
        expect(checked).toBeInstanceOf(Api2ShapeError);
        expect([checked.message, checked.path]).toStrictEqual([plain.message, plain.path]);
        return true;
      }),
      { numRuns: 1000 },
    );
    const bad = { Results: [{ RecipeID: 1 }, { RecipeID: 2, Poster: { UserID: 'seven' } }] };
    expect(() => parseApi2(RecipeSearchResult, bad, 'GET /recipes', isRecipeSearchResult)).toThrow(
      'api2 answer to GET /recipes does not match its schema at Results[1].Poster.UserID: Invalid input: expected number, received string',
    );
  });
});

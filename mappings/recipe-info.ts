/**
 * api2 RecipeInfox → the legacy result item of legacy-interface.md part 2.5. Pure.
 * Used by search, favorites and try soons.
 */
import { avatarUrl48, imageUrl120 } from '../src/legacy/image-urls.js';
import type { Poster, RecipeInfo, RecipeSearchResult } from '../src/legacy/records.js';
import { toLegacyDate } from '../src/legacy/records.js';
import type { RecipeInfox } from './api2-schemas.js';
import type { Loss, MappingOptions } from './types.js';
import { UNKNOWN_POSTER } from '../src/legacy/records.js';

/** ISO-8601 → `/Date(<ms>)/`; a missing date is the epoch (declared where it can happen). */
export function legacyDateOf(iso: string | undefined): string {
  return toLegacyDate(iso ? Date.parse(iso) : 0);
}

export function legacyPosterOf(poster: RecipeInfox['Poster']): Poster {
  if (!poster || !poster.UserID) return UNKNOWN_POSTER;
  return {
    ...UNKNOWN_POSTER,
    UserID: poster.UserID,
    UserName: poster.UserName ?? null,
    // [I] the 48 px avatar is the poster's photo with the image host's size rule.
    ImageURL48: poster.PhotoUrl ? avatarUrl48(poster.PhotoUrl) : null,
  };
}

export function legacyRecipeInfoOf(item: RecipeInfox, options: MappingOptions): RecipeInfo {
  const photo = item.PhotoUrl ?? options.noPhotoImageUrl;
  return {
    RecipeID: item.RecipeID,
    Title: item.Title ?? '',
    Cuisine: item.Cuisine ?? null,
    Category: item.Category ?? '',
    Subcategory: item.Subcategory ?? '',
    StarRating: item.StarRating ?? 0,
    StarRatingIMG: null,
    WebURL: item.WebURL ?? '',
    // [I] ImageURL and HeroPhotoUrl are api2's PhotoUrl; ImageURL120 its 120 px variant.
    ImageURL: photo,
    ImageURL120: photo ? imageUrl120(photo) : '',
    ReviewCount: item.ReviewCount ?? 0,
    Poster: legacyPosterOf(item.Poster),
    IsPrivate: item.IsPrivate ?? false,
    HideFromPublicSearch: false,
    IsBookmark: item.IsBookmark ? true : null,
    // [I] YieldNumber is api2's Servings; legacy carries an integer.
    YieldNumber: Math.round(item.Servings ?? 0),
    QualityScore: 0,
    CreationDate: legacyDateOf(item.CreationDate),
    MaxImageSquare: 0,
    TotalTries: item.TotalTries ?? 0,
    HeroPhotoUrl: photo,
  };
}

export function legacySearchResultOf(
  resultCount: number,
  items: readonly RecipeInfox[],
  spellSuggest: string | undefined,
  options: MappingOptions,
): RecipeSearchResult {
  return {
    ResultCount: resultCount,
    Results: items.map((item) => legacyRecipeInfoOf(item, options)),
    SpellSuggest: spellSuggest ?? null,
  };
}

/** The losses of every answer made of RecipeInfox items, under `prefix` (e.g. `Results[]`; '' for the answer itself). */
export function recipeInfoLosses(prefix: string): Loss[] {
  const at = (field: string): string => (prefix === '' ? field : `${prefix}.${field}`);
  return [
    { field: at('QualityScore'), fill: 0, why: 'api2 RecipeInfox has no quality score' },
    { field: at('MaxImageSquare'), fill: 0, why: 'api2 RecipeInfox has no image size' },
    { field: at('HideFromPublicSearch'), fill: false, why: 'api2 RecipeInfox has no such flag (hidden recipes never appear in search)' },
    { field: at('Poster.IsPremium'), fill: false, why: 'api2 UserInfoTinyx has no premium flag' },
    { field: at('Poster.IsKitchenHelper'), fill: false, why: 'api2 UserInfoTinyx has no kitchen-helper flag' },
    { field: at('Poster.IsUsingBillingProvider'), fill: false, why: 'api2 UserInfoTinyx has no billing flag' },
  ];
}

export const RECIPE_INFO_INFERENCES = [
  'ImageURL and HeroPhotoUrl are api2 PhotoUrl; ImageURL120 and Poster.ImageURL48 apply the image host size rule (t_recipe-120, t_user-48) to it [I]',
  'YieldNumber is api2 Servings, rounded [I]',
  'a recipe without PhotoUrl shows the configured no-photo image (api2.noPhotoImageUrl)',
];

/**
 * The legacy response records, as zod schemas.
 *
 * The search result (RecipeSearchResult, RecipeInfo, Poster) follows legacy-interface.md part 2.5
 * field for field. Every other body is a DECISION, because the document says "not shown":
 *
 * - Review: the fields of the BigOven review model that api2 also publishes (api2 `Review`), with
 *   the legacy-only MakeAgain, integer ids and `\/Date(ms)\/` dates. One review per answer.
 * - Reviews of a recipe: a bare array of Review (XML root ArrayOfReview), as api2 answers it.
 * - Grocery item: the legacy grocery sample quoted in api2-notes, field for field.
 * - Grocery list: {"Items":[Item, ...]} as in that sample.
 * - Favorites and try soons: the search result object of part 2.5 holding every entry
 *   (no paging: api2-notes, paging [C]), because api2 reads them through search.
 * - Status codes: reads and updates 200, creates 200 with the created record (ASP.NET Web API's
 *   default), deletes and favorite/try-soon adds 204 with no body (ASP.NET's answer for a void
 *   action), unknown id 404; somebody else's grocery item 404 (never reveal it exists),
 *   somebody else's review 403 (reviews are public, only the author may change one).
 */
import { z } from 'zod';

/** `\/Date(<epoch_ms>)\/` as it appears once JSON-decoded: `/Date(1436410705347)/`. */
export const legacyDate = z.string().regex(/^\/Date\(-?[0-9]+\)\/$/);

export function toLegacyDate(epochMs: number): string {
  return `/Date(${epochMs})/`;
}

export const PosterSchema = z.object({
  UserID: z.number().int(),
  UserName: z.string().nullable(),
  ImageURL48: z.string().nullable(),
  PhotoUrl: z.string().nullable(),
  IsPremium: z.boolean(),
  IsKitchenHelper: z.boolean(),
  PremiumExpiryDate: z.string().nullable(),
  MemberSince: z.string().nullable(),
  IsUsingBillingProvider: z.boolean(),
});
export type Poster = z.infer<typeof PosterSchema>;

/** Part 2.5: an unknown poster is UserID 0 with null name and avatar, its flags false. */
export const UNKNOWN_POSTER: Poster = {
  UserID: 0,
  UserName: null,
  ImageURL48: null,
  PhotoUrl: null,
  IsPremium: false,
  IsKitchenHelper: false,
  PremiumExpiryDate: null,
  MemberSince: null,
  IsUsingBillingProvider: false,
};

export const RecipeInfoSchema = z.object({
  RecipeID: z.number().int(),
  Title: z.string(),
  Cuisine: z.string().nullable(),
  Category: z.string(),
  Subcategory: z.string(),
  StarRating: z.number(),
  StarRatingIMG: z.null(),
  WebURL: z.string(),
  ImageURL: z.string(),
  ImageURL120: z.string(),
  ReviewCount: z.number().int(),
  Poster: PosterSchema,
  IsPrivate: z.boolean(),
  HideFromPublicSearch: z.boolean(),
  IsBookmark: z.boolean().nullable(),
  YieldNumber: z.number().int(),
  QualityScore: z.number(),
  CreationDate: legacyDate,
  MaxImageSquare: z.number().int(),
  TotalTries: z.number().int(),
  HeroPhotoUrl: z.string(),
});
export type RecipeInfo = z.infer<typeof RecipeInfoSchema>;

/**
 * DECISION: the `GET /recipe/{id}` answer (uncatalogued; the sandbox legacy backend serves it):
 * RecipeInfo plus Ingredients and Instructions (XML root `Recipe`). The real legacy detail has
 * more fields; clients read these.
 */
export const RecipeDetailSchema = RecipeInfoSchema.extend({
  Ingredients: z.array(z.object({ Name: z.string() })),
  Instructions: z.string(),
});
export type RecipeDetail = z.infer<typeof RecipeDetailSchema>;

export const RecipeSearchResultSchema = z.object({
  ResultCount: z.number().int(),
  Results: z.array(RecipeInfoSchema),
  SpellSuggest: z.string().nullable(),
});
export type RecipeSearchResult = z.infer<typeof RecipeSearchResultSchema>;

export const ReviewPosterSchema = z.object({
  UserID: z.number().int(),
  UserName: z.string().nullable(),
  ImageURL48: z.string().nullable(),
});

export const ReviewSchema = z.object({
  ReviewID: z.number().int(),
  RecipeID: z.number().int(),
  StarRating: z.number().int(),
  MakeAgain: z.enum(['yes', 'no', 'notmake']).nullable(),
  Comment: z.string(),
  TotalMinutes: z.number().int().nullable(),
  ActiveMinutes: z.number().int().nullable(),
  Poster: ReviewPosterSchema,
  CreationDate: legacyDate,
  LastModified: legacyDate,
});
export type Review = z.infer<typeof ReviewSchema>;

export const GroceryItemSchema = z.object({
  ItemID: z.number().int(),
  GUID: z.string(),
  RecipeID: z.number().int().nullable(),
  Name: z.string(),
  Notes: z.string(),
  DisplayQuantity: z.string(),
  Department: z.string(),
  CreationDate: legacyDate,
  IsChecked: z.boolean().nullable(),
  LocalStatus: z.string(),
  LastModified: legacyDate,
  BigOvenObject: z.null(),
  ThirdPartyURL: z.string().nullable(),
});
export type GroceryItem = z.infer<typeof GroceryItemSchema>;

export const GroceryListSchema = z.object({ Items: z.array(GroceryItemSchema) });
export type GroceryList = z.infer<typeof GroceryListSchema>;

/** The reviews of one recipe: a bare array of Review. */
export const ReviewListSchema = z.array(ReviewSchema);

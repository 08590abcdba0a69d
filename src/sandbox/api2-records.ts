/**
 * The api2 view of the neutral dataset: the pure functions that build the api2 records the api2
 * sandbox answers with. Their shapes are declared once, as the zod schemas the gateway reads api2
 * with (mappings/api2-schemas.ts, after the published spec); the tests check every answer against
 * the spec itself. The legacy view of the same data is dataset/dataset.ts toRecipeInfo and
 * legacy-store.ts: a recipe, review or grocery item reads the same through both.
 *
 * The spec declares no `nullable` anywhere, so a field whose neutral value is null is OMITTED,
 * never sent as null. Dates are ISO-8601 strings with milliseconds (`format: date-time` [C],
 * ISO [I]), so `/Date(ms)/` of the legacy view converts back without loss.
 */
import type { z } from 'zod';
import type { GroceryItem, RecipeInfox, Review, ShoppingListLine, UserInfo, UserInfoTinyx } from '../../mappings/api2-schemas.js';
import type { PrimaryCategoryToken } from '../legacy/param-rules.js';
import { avatarUrl48, guidFromCounter, webUrl } from './dataset/dataset.js';
import type { NeutralGroceryItem, NeutralRecipe, NeutralReview, ReviewStats, SandboxUser } from './dataset/dataset.js';

/** An api2 answer the sandbox sends, typed by the schema the gateway reads it with (mappings/api2-schemas.ts). */
export type Sent<Schema extends z.ZodType> = z.input<Schema>;

// ---------------------------------------------------------------- categories

/** api2 `include_primarycat` tokens → the neutral (legacy) tokens (api2-notes, search [C]). */
export const API2_CATEGORY_TOKENS: Readonly<Record<string, PrimaryCategoryToken>> = {
  desserts: 'dessert',
  appetizers: 'appetizer',
  bread: 'bread',
  breakfast: 'breakfast',
  drinks: 'drinks',
  maindish: 'main dish',
  salads: 'salad',
  sidedish: 'side dish',
  soups: 'soup',
  marinades: 'marinade',
  other: 'other',
};

// ---------------------------------------------------------------- ids

/**
 * DECISION: a review's string-style `ID` is guidFromCounter(REVIEW_GUID_BASE + ReviewID): its last
 * group reads `A000000xxxxx` (the ReviewID in hex), so it never equals a grocery GUID
 * (guidFromCounter(ItemID)) and maps back to the ReviewID without a table.
 */
const REVIEW_GUID_BASE = 0xa000_0000_0000;
/** DECISION: VersionGuid = guidFromCounter(VERSION_GUID_BASE + userId·2^20 + version): last group `B…`. */
const VERSION_GUID_BASE = 0xb000_0000_0000;

export function reviewGuid(reviewId: number): string {
  return guidFromCounter(REVIEW_GUID_BASE + reviewId);
}

/** The ReviewID of a string-style review ID, or null when it is not one reviewGuid made. */
export function reviewIdOfGuid(id: string): number | null {
  const match = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-([0-9A-F]{12})$/i.exec(id);
  if (!match?.[1]) return null;
  const reviewId = parseInt(match[1], 16) - REVIEW_GUID_BASE;
  return reviewId >= 1 && reviewGuid(reviewId) === id.toUpperCase() ? reviewId : null;
}

export function listVersionGuid(userId: number, version: number): string {
  return guidFromCounter(VERSION_GUID_BASE + userId * 0x10_0000 + version);
}

// ---------------------------------------------------------------- builders

export const isoDate = (epochMs: number): string => new Date(epochMs).toISOString();

export function toUserInfoTinyx(user: SandboxUser): Sent<typeof UserInfoTinyx> {
  return { UserID: user.userId, UserName: user.userName, FirstName: user.firstName, LastName: user.lastName, PhotoUrl: user.avatarUrl };
}

/**
 * DECISIONS: PhotoUrl omitted when the recipe has no photo (the legacy view shows its placeholder
 * instead); Cuisine omitted when null ('' stays ''); Poster omitted for an unknown poster;
 * Microcategory omitted (the dataset has none); IsBookmark false unless in the viewer's favorites
 * (legacy: null); HasVideos and IsRecipeScan always false.
 */
export function toRecipeInfox(
  recipe: NeutralRecipe,
  poster: SandboxUser | null,
  stats: ReviewStats,
  bookmarks: ReadonlySet<number> | null,
): Sent<typeof RecipeInfox> {
  return {
    RecipeID: recipe.id,
    Title: recipe.title,
    ...(recipe.cuisine !== null ? { Cuisine: recipe.cuisine } : {}),
    Category: recipe.categoryName,
    Subcategory: recipe.subcategory,
    StarRating: stats.count === 0 ? 0 : stats.average,
    ReviewCount: stats.count,
    WebURL: webUrl(recipe.id),
    ...(recipe.photoUrl !== null ? { PhotoUrl: recipe.photoUrl } : {}),
    ...(poster ? { Poster: toUserInfoTinyx(poster) } : {}),
    IsPrivate: recipe.isPrivate,
    IsBookmark: bookmarks?.has(recipe.id) ?? false,
    Servings: recipe.servings,
    CreationDate: isoDate(recipe.createdAtMs),
    TotalTries: recipe.totalTries,
    HasVideos: false,
    IsRecipeScan: false,
  };
}

/** DECISION: IsUsingRecurly carries the dataset's usesBillingProvider (legacy IsUsingBillingProvider) [I]. */
export function toApi2UserInfo(userId: number, user: SandboxUser | null): Sent<typeof UserInfo> {
  if (!user) return { UserID: userId };
  return {
    UserID: user.userId,
    UserName: user.userName,
    FirstName: user.firstName,
    LastName: user.lastName,
    PhotoUrl: user.avatarUrl,
    ImageUrl48: avatarUrl48(user.avatarUrl),
    IsPremium: user.isPremium,
    IsKitchenHelper: user.isKitchenHelper,
    IsUsingRecurly: user.usesBillingProvider,
    MemberSince: isoDate(user.memberSinceMs),
  };
}

/**
 * DECISION: no replies in the sandbox: ReplyCount 0, no FeaturedReply, Replies, ParentID or GUID.
 * api2's Review has no MakeAgain (api2-notes [C]): stored, never returned.
 */
export function toApi2Review(review: NeutralReview, user: SandboxUser | null): Sent<typeof Review> {
  return {
    ID: reviewGuid(review.id),
    ReviewID: review.id,
    StarRating: review.rating,
    Comment: review.comment,
    ...(review.totalMinutes !== null ? { TotalMinutes: review.totalMinutes } : {}),
    ...(review.activeMinutes !== null ? { ActiveMinutes: review.activeMinutes } : {}),
    Poster: toApi2UserInfo(review.userId, user),
    CreationDate: isoDate(review.createdAtMs),
    LastModified: isoDate(review.modifiedAtMs),
    ReplyCount: 0,
  };
}

/** DECISION: LocalStatus UNMODIFIED as in legacy; RecipeID, IsChecked omitted when null; BigOvenObject, ThirdPartyURL never sent. */
export function toApi2GroceryItem(item: NeutralGroceryItem): Sent<typeof GroceryItem> {
  return {
    ItemID: item.id,
    GUID: item.guid,
    ...(item.recipeId !== null ? { RecipeID: item.recipeId } : {}),
    Name: item.name,
    Notes: item.notes,
    DisplayQuantity: item.quantity,
    Department: item.department,
    CreationDate: isoDate(item.createdAtMs),
    ...(item.isChecked !== null ? { IsChecked: item.isChecked } : {}),
    LocalStatus: 'UNMODIFIED',
    LastModified: isoDate(item.modifiedAtMs),
  };
}

/** ShoppingListLineID is the ItemID [I]; TextAmt the display quantity; Dept the department. */
export function toShoppingListLine(item: NeutralGroceryItem): Sent<typeof ShoppingListLine> {
  return {
    ShoppingListLineID: item.id,
    GUID: item.guid,
    ItemName: item.name,
    TextAmt: item.quantity,
    Notes: item.notes,
    Dept: item.department,
    DateAdded: isoDate(item.createdAtMs),
    LastModified: isoDate(item.modifiedAtMs),
    ...(item.isChecked !== null ? { IsChecked: item.isChecked } : {}),
    ...(item.recipeId !== null ? { RecipeID: item.recipeId } : {}),
  };
}

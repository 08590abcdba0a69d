/**
 * The api2 view of the neutral dataset: the record shapes of the published api2 spec
 * (api2-partner.openapi.yaml, components/schemas) that the api2 sandbox answers with, and the pure
 * functions that build them. The legacy view of the same data is dataset.ts toRecipeInfo and
 * legacy-store.ts: a recipe, review or grocery item reads the same through both.
 *
 * The spec declares no `nullable` anywhere, so a field whose neutral value is null is OMITTED,
 * never sent as null. Dates are ISO-8601 strings with milliseconds (`format: date-time` [C],
 * ISO [I]), so `/Date(ms)/` of the legacy view converts back without loss.
 */
import type { PrimaryCategoryToken } from '../legacy/param-rules.js';
import { avatarUrl48, guidFromCounter, webUrl } from './dataset/dataset.js';
import type { NeutralGroceryItem, NeutralRecipe, NeutralReview, ReviewStats, SandboxUser } from './dataset/dataset.js';

// ---------------------------------------------------------------- shapes (spec schema names)

/** BigOven.Model.API2.UserInfoTinyx */
export interface UserInfoTinyx {
  UserID: number;
  UserName: string;
  FirstName: string;
  LastName: string;
  PhotoUrl: string;
}

/** BigOven.Model.API2.RecipeInfox */
export interface RecipeInfox {
  RecipeID: number;
  Title: string;
  Cuisine?: string;
  Category: string;
  Subcategory: string;
  StarRating: number;
  ReviewCount: number;
  WebURL: string;
  PhotoUrl?: string;
  Poster?: UserInfoTinyx;
  IsPrivate: boolean;
  IsBookmark: boolean;
  Servings: number;
  CreationDate: string;
  TotalTries: number;
  HasVideos: boolean;
  IsRecipeScan: boolean;
}

/** BigOven.Model.API2.RecipeSearchResult (SpellSuggest: never sent, the sandbox has no speller). */
export interface Api2RecipeSearchResult {
  ResultCount: number;
  Results: RecipeInfox[];
}

/** BigOven.Model.API.UserInfo (the fields the dataset can fill). */
export interface Api2UserInfo {
  UserID: number;
  UserName?: string;
  FirstName?: string;
  LastName?: string;
  PhotoUrl?: string;
  ImageUrl48?: string;
  IsPremium?: boolean;
  IsKitchenHelper?: boolean;
  IsUsingRecurly?: boolean;
  MemberSince?: string;
}

/** BigOven.Model.API.Review. It has no MakeAgain (api2-notes [C]): stored, never returned. */
export interface Api2Review {
  ID: string;
  ReviewID: number;
  StarRating: number;
  Comment: string;
  TotalMinutes?: number;
  ActiveMinutes?: number;
  Poster: Api2UserInfo;
  CreationDate: string;
  LastModified: string;
  ReplyCount: number;
}

/** BigOven.Model.API.Grocery.Item */
export interface Api2GroceryItem {
  ItemID: number;
  GUID: string;
  RecipeID?: number;
  Name: string;
  Notes: string;
  DisplayQuantity: string;
  Department: string;
  CreationDate: string;
  IsChecked?: boolean;
  LocalStatus: string;
  LastModified: string;
}

/**
 * BigOven.Model.API2.GroceryList. VersionGuid is NOT in the published schema (which allows extra
 * properties); api2-notes lists it [C], so it is sent.
 */
export interface Api2GroceryList {
  Items: Api2GroceryItem[];
  Recipes: RecipeInfox[];
  LastModified: string;
  VersionGuid: string;
}

/** BigOven.Model.ShoppingListLine: the answer to POST /grocerylist/item, other names than Item. */
export interface ShoppingListLine {
  ShoppingListLineID: number;
  GUID: string;
  ItemName: string;
  TextAmt: string;
  Notes: string;
  Dept: string;
  DateAdded: string;
  LastModified: string;
  IsChecked?: boolean;
  RecipeID?: number;
}

/** System.Object: what POST review, PUT/DELETE grocery item and DELETE review answer. */
export type EmptyObject = Record<string, never>;

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

export function toUserInfoTinyx(user: SandboxUser): UserInfoTinyx {
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
): RecipeInfox {
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
export function toApi2UserInfo(userId: number, user: SandboxUser | null): Api2UserInfo {
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

/** DECISION: no replies in the sandbox: ReplyCount 0, no FeaturedReply, Replies, ParentID or GUID. */
export function toApi2Review(review: NeutralReview, user: SandboxUser | null): Api2Review {
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
export function toApi2GroceryItem(item: NeutralGroceryItem): Api2GroceryItem {
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
export function toShoppingListLine(item: NeutralGroceryItem): ShoppingListLine {
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

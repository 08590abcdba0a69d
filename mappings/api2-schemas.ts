/**
 * The api2 shapes the adapters read, as zod schemas with the published spec's names and types
 * (api2-partner.openapi.yaml, components/schemas). The spec marks no property required, so every
 * field is optional here; a present field of the wrong type is a schema mismatch. Unknown fields
 * are ignored.
 */
import { z } from 'zod';
import { isDateText } from '../src/hot-path.js';

const int = z.number().int();
const dateTime = z.string().refine(isDateText, 'must be an ISO-8601 date-time');

/** BigOven.Model.API2.UserInfoTinyx */
export const UserInfoTinyx = z.object({
  FirstName: z.string().optional(),
  LastName: z.string().optional(),
  PhotoUrl: z.string().optional(),
  UserID: int.optional(),
  UserName: z.string().optional(),
});

/** BigOven.Model.API2.RecipeInfox */
export const RecipeInfox = z.object({
  Category: z.string().optional(),
  CreationDate: dateTime.optional(),
  Cuisine: z.string().optional(),
  HasVideos: z.boolean().optional(),
  IsBookmark: z.boolean().optional(),
  IsPrivate: z.boolean().optional(),
  IsRecipeScan: z.boolean().optional(),
  Microcategory: z.string().optional(),
  PhotoUrl: z.string().optional(),
  Poster: UserInfoTinyx.optional(),
  RecipeID: int,
  ReviewCount: int.optional(),
  Servings: z.number().optional(),
  StarRating: z.number().optional(),
  Subcategory: z.string().optional(),
  Title: z.string().optional(),
  TotalTries: int.optional(),
  WebURL: z.string().optional(),
});
export type RecipeInfox = z.infer<typeof RecipeInfox>;

/** BigOven.Model.API2.RecipeSearchResult */
export const RecipeSearchResult = z.object({
  ResultCount: int.optional(),
  Results: z.array(RecipeInfox).optional(),
  SpellSuggest: z.string().optional(),
});

/**
 * The search page's shape checked in place: true only for a value RecipeSearchResult accepts, read
 * as it is (no copy, nothing allocated). parseApi2 takes such a value as it is and sends anything
 * else through the schema, so a refusal is still the schema's, with its path and message. The
 * members and rules are those of the schemas above, checked against them by
 * test/api2-answer-checked-in-place-as-the-schema-would.test.ts.
 */
type Check = (value: unknown) => boolean;

const isString: Check = (value) => typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const isInt: Check = (value) => Number.isSafeInteger(value);
const isDateTimeText: Check = (value) => typeof value === 'string' && isDateText(value);
const optional = (check: Check): Check => (value) => value === undefined || check(value);
function arrayOf(check: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return false;
    for (let index = 0; index < value.length; index++) if (!check(value[index])) return false;
    return true;
  };
}
/** An object whose named members pass their checks; other members are not read (the schemas ignore them). */
function objectOf(members: Readonly<Record<string, Check>>): Check {
  const entries = Object.entries(members);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    for (const [name, check] of entries) if (!check((value as Record<string, unknown>)[name])) return false;
    return true;
  };
}

const isUserInfoTinyx = objectOf({
  FirstName: optional(isString),
  LastName: optional(isString),
  PhotoUrl: optional(isString),
  UserID: optional(isInt),
  UserName: optional(isString),
});

const isRecipeInfox = objectOf({
  Category: optional(isString),
  CreationDate: optional(isDateTimeText),
  Cuisine: optional(isString),
  HasVideos: optional(isBoolean),
  IsBookmark: optional(isBoolean),
  IsPrivate: optional(isBoolean),
  IsRecipeScan: optional(isBoolean),
  Microcategory: optional(isString),
  PhotoUrl: optional(isString),
  Poster: optional(isUserInfoTinyx),
  RecipeID: isInt,
  ReviewCount: optional(isInt),
  Servings: optional(isNumber),
  StarRating: optional(isNumber),
  Subcategory: optional(isString),
  Title: optional(isString),
  TotalTries: optional(isInt),
  WebURL: optional(isString),
});

export const isRecipeSearchResult = objectOf({
  ResultCount: optional(isInt),
  Results: optional(arrayOf(isRecipeInfox)),
  SpellSuggest: optional(isString),
}) as (value: unknown) => value is z.infer<typeof RecipeSearchResult>;

/** BigOven.Model.API.UserInfo */
export const UserInfo = z.object({
  FirstName: z.string().optional(),
  ImageUrl48: z.string().optional(),
  IsKitchenHelper: z.boolean().optional(),
  IsPremium: z.boolean().optional(),
  IsUsingRecurly: z.boolean().optional(),
  LastName: z.string().optional(),
  MemberSince: dateTime.optional(),
  PhotoUrl: z.string().optional(),
  PhotoUrl48: z.string().optional(),
  PremiumExpiryDate: dateTime.optional(),
  UserID: int.optional(),
  UserName: z.string().optional(),
  WebUrl: z.string().optional(),
});

/** BigOven.Model.API.Review (replies are not read). */
export const Review = z.object({
  ActiveMinutes: int.optional(),
  Comment: z.string().optional(),
  CreationDate: dateTime.optional(),
  GUID: z.string().optional(),
  ID: z.string().optional(),
  LastModified: dateTime.optional(),
  Poster: UserInfo.optional(),
  ReplyCount: int.optional(),
  ReviewID: int,
  StarRating: z.number().optional(),
  TotalMinutes: int.optional(),
});
export type Review = z.infer<typeof Review>;
export const ReviewList = z.array(Review);

/** BigOven.Model.API.Grocery.Item */
export const GroceryItem = z.object({
  BigOvenObject: z.string().optional(),
  CreationDate: dateTime.optional(),
  Department: z.string().optional(),
  DisplayQuantity: z.string().optional(),
  GUID: z.string(),
  IsChecked: z.boolean().optional(),
  ItemID: int,
  LastModified: dateTime.optional(),
  LocalStatus: z.string().optional(),
  Name: z.string().optional(),
  Notes: z.string().optional(),
  RecipeID: int.optional(),
  ThirdPartyURL: z.string().optional(),
});
export type GroceryItem = z.infer<typeof GroceryItem>;

/** BigOven.Model.API2.GroceryList */
export const GroceryList = z.object({
  Items: z.array(GroceryItem).optional(),
  LastModified: dateTime.optional(),
  Recipes: z.array(RecipeInfox).optional(),
  VersionGuid: z.string().optional(),
});

/** BigOven.Model.ShoppingListLine */
export const ShoppingListLine = z.object({
  DateAdded: dateTime.optional(),
  Dept: z.string().optional(),
  GUID: z.string(),
  IsChecked: z.boolean().optional(),
  ItemName: z.string().optional(),
  LastModified: dateTime.optional(),
  Notes: z.string().optional(),
  RecipeID: int.optional(),
  ShoppingListLineID: int,
  TextAmt: z.string().optional(),
  ThirdPartyURL: z.string().optional(),
});
export type ShoppingListLine = z.infer<typeof ShoppingListLine>;

/** System.Object: what api2 answers to writes (`{}`). */
export const SystemObject = z.union([z.object({}), z.undefined()]);

/**
 * The api2 shapes the adapters read, as zod schemas with the published spec's names and types
 * (api2-partner.openapi.yaml, components/schemas). The spec marks no property required, so every
 * field is optional here; a present field of the wrong type is a schema mismatch. Unknown fields
 * are ignored.
 */
import { z } from 'zod';

const int = z.number().int();
const dateTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO-8601 date-time');

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

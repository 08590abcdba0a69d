/**
 * The legacy sandbox's in-memory store: a fresh, mutable copy of the dataset per instance (tests
 * never share state; loaded, with the credentials and review stats, by DatasetStore in
 * dataset-store.ts) and the operations of the legacy interface, answering legacy records.
 *
 * DECISIONS (the legacy document is silent):
 * - Someone else's review: 403 on update and delete (reviews are public, hiding them is pointless).
 *   Someone else's grocery item: 404 (lists are private; never reveal that the item exists).
 * - One review per (user, recipe), as api2 does [C]: a second create by the same user updates the
 *   first and answers it with its ReviewID.
 * - Updates replace every field (PUT semantics): an absent optional field becomes null (review
 *   minutes) or '' (grocery notes and department).
 * - Review update: rid must be the review's recipe, else 400.
 * - A private recipe is visible to its poster only; to anybody else it does not exist (404).
 *   Private and hidden recipes never appear in search.
 * - Favorite / try-soon add of a recipe already in the list: no change, success (idempotent).
 *   Remove of a recipe not in the list: 404.
 * - Reviews of a recipe, favorites, try soons and grocery items are listed in ascending id /
 *   insertion order, unpaged.
 */
import type { PrimaryCategoryToken } from '../legacy/param-rules.js';
import { toLegacyDate } from '../legacy/records.js';
import { REVIEW_REFUSALS } from '../legacy/review-refusals.js';
import { LEGACY_REFUSALS } from '../legacy/refusal-words.js';
import type { GroceryItem, GroceryList, RecipeDetail, RecipeSearchResult, Review } from '../legacy/records.js';
import { avatarUrl48, guidFromCounter, toRecipeDetail, toRecipeInfo } from './dataset/dataset.js';
import type { MakeAgain, NeutralGroceryItem, NeutralRecipe, NeutralReview } from './dataset/dataset.js';
import { DatasetStore } from './dataset/dataset-store.js';
import type { DatasetList, DatasetStoreOptions, Mutable } from './dataset/dataset-store.js';

export type StoreResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly status: 400 | 403 | 404; readonly message: string };

export interface SearchQuery {
  readonly titleKw?: string;
  readonly anyKw?: string;
  readonly category?: PrimaryCategoryToken;
  readonly cuisine?: string;
  readonly includeIng?: readonly string[];
  readonly excludeIng?: readonly string[];
  readonly photos?: boolean;
  /** Default 1. */
  readonly page?: number;
  /** Default 10 (DECISION, after a legacy client library [I]). */
  readonly perPage?: number;
}

export interface ReviewInput {
  readonly recipeId: number;
  readonly rating: number;
  readonly makeAgain: MakeAgain;
  readonly comment: string;
  readonly totalMinutes: number | null;
  readonly activeMinutes: number | null;
}

export interface GroceryInput {
  readonly quantity: string;
  readonly name: string;
  readonly notes: string | null;
  readonly department: string | null;
}

export type UserList = 'favorites' | 'trysoons';

export type LegacyStoreOptions = DatasetStoreOptions;

/** The legacy list names of the dataset's lists. */
const LISTS: Readonly<Record<UserList, DatasetList>> = { favorites: 'favorites', trysoons: 'trySoons' };

const ok = <T>(value: T): StoreResult<T> => ({ ok: true, value });
const fail = <T>(status: 400 | 403 | 404, message: string): StoreResult<T> => ({ ok: false, status, message });
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class LegacyStore extends DatasetStore {
  // ------------------------------------------------------------ recipes

  search(query: SearchQuery, viewerId: number | null): RecipeSearchResult {
    const matches = this.publicMatches({ ...query, categories: query.category ? [query.category] : undefined });
    const perPage = query.perPage ?? 10;
    const start = ((query.page ?? 1) - 1) * perPage;
    return this.resultOf(matches, matches.slice(start, start + perPage), viewerId);
  }

  recipeDetail(recipeId: number, viewerId: number | null): StoreResult<RecipeDetail> {
    const recipe = this.visibleRecipe(recipeId, viewerId);
    if (!recipe) return fail(404, `Recipe ${recipeId} was not found.`);
    return ok(toRecipeDetail(recipe, this.posterOf(recipe), this.reviewStats(recipe.id), this.bookmarksOf(viewerId)));
  }

  // ------------------------------------------------------------ reviews

  getReview(reviewId: number): StoreResult<Review> {
    const review = this.reviews.get(reviewId);
    return review ? ok(this.toReview(review)) : fail(404, REVIEW_REFUSALS.notFound(reviewId));
  }

  listReviews(recipeId: number, viewerId: number | null): StoreResult<Review[]> {
    if (!this.visibleRecipe(recipeId, viewerId)) return fail(404, `Recipe ${recipeId} was not found.`);
    const ids = [...(this.reviewsByRecipe.get(recipeId) ?? [])].sort((a, b) => a - b);
    return ok(ids.flatMap((id) => {
      const review = this.reviews.get(id);
      return review ? [this.toReview(review)] : [];
    }));
  }

  createReview(userId: number, input: ReviewInput): StoreResult<Review> {
    if (!this.visibleRecipe(input.recipeId, userId)) return fail(404, `Recipe ${input.recipeId} was not found.`);
    const existing = this.ownReview(userId, input.recipeId);
    if (existing) return this.updateReview(userId, existing.id, input);
    const now = this.now();
    const review: NeutralReview = { id: this.data.nextReviewId, userId, ...input, createdAtMs: now, modifiedAtMs: now };
    this.putReview(review);
    return ok(this.toReview(review));
  }

  updateReview(userId: number, reviewId: number, input: ReviewInput): StoreResult<Review> {
    const review = this.reviews.get(reviewId);
    if (!review) return fail(404, REVIEW_REFUSALS.notFound(reviewId));
    if (review.userId !== userId) return fail(403, REVIEW_REFUSALS.anotherUsers(reviewId));
    if (review.recipeId !== input.recipeId) return fail(400, REVIEW_REFUSALS.wrongRecipe(reviewId));
    Object.assign(review, {
      rating: input.rating,
      makeAgain: input.makeAgain,
      comment: input.comment,
      totalMinutes: input.totalMinutes,
      activeMinutes: input.activeMinutes,
      modifiedAtMs: this.now(),
    });
    return ok(this.toReview(review));
  }

  deleteReview(userId: number, reviewId: number): StoreResult<null> {
    const review = this.reviews.get(reviewId);
    if (!review) return fail(404, REVIEW_REFUSALS.notFound(reviewId));
    if (review.userId !== userId) return fail(403, REVIEW_REFUSALS.anotherUsers(reviewId));
    this.removeReview(review);
    return ok(null);
  }

  // ------------------------------------------------------------ grocery list

  listGrocery(userId: number): GroceryList {
    const items = [...this.grocery.values()].filter((item) => item.userId === userId).sort((a, b) => a.id - b.id);
    return { Items: items.map(toGroceryItem) };
  }

  createGrocery(userId: number, input: GroceryInput): GroceryItem {
    const id = this.data.nextItemId++;
    const now = this.now();
    const item: NeutralGroceryItem = {
      id,
      guid: guidFromCounter(id),
      userId,
      recipeId: null,
      name: input.name,
      quantity: input.quantity,
      notes: input.notes ?? '',
      department: input.department ?? '',
      isChecked: null,
      createdAtMs: now,
      modifiedAtMs: now,
    };
    this.grocery.set(id, { ...item });
    this.data.touchGroceryList(userId, now);
    return toGroceryItem(item);
  }

  /** `ref`: the integer ItemID or the GUID (any case). */
  updateGrocery(userId: number, ref: string, input: GroceryInput): StoreResult<GroceryItem> {
    const item = this.groceryItem(userId, ref);
    if (!item) return fail(404, LEGACY_REFUSALS.groceryItemNotFound(ref));
    const now = this.now();
    Object.assign(item, {
      name: input.name,
      quantity: input.quantity,
      notes: input.notes ?? '',
      department: input.department ?? '',
      modifiedAtMs: now,
    });
    this.data.touchGroceryList(userId, now);
    return ok(toGroceryItem(item));
  }

  deleteGrocery(userId: number, ref: string): StoreResult<null> {
    const item = this.groceryItem(userId, ref);
    if (!item) return fail(404, LEGACY_REFUSALS.groceryItemNotFound(ref));
    this.grocery.delete(item.id);
    this.data.touchGroceryList(userId, this.now());
    return ok(null);
  }

  // ------------------------------------------------------------ favorites and try soons

  addToList(list: UserList, userId: number, recipeId: number): StoreResult<null> {
    if (!this.visibleRecipe(recipeId, userId)) return fail(404, `Recipe ${recipeId} was not found.`);
    this.listOf(LISTS[list], userId).add(recipeId);
    return ok(null);
  }

  removeFromList(list: UserList, userId: number, recipeId: number): StoreResult<null> {
    const removed = this.listOf(LISTS[list], userId).delete(recipeId);
    return removed ? ok(null) : fail(404, `Recipe ${recipeId} is not in the ${list === 'favorites' ? 'favorites' : 'try soons'}.`);
  }

  /** Every entry, in the user's order, as a search result (records.ts DECISION). */
  readList(list: UserList, userId: number): RecipeSearchResult {
    const recipes = [...this.listOf(LISTS[list], userId)].flatMap((id) => {
      const recipe = this.visibleRecipe(id, userId);
      return recipe ? [recipe] : [];
    });
    return this.resultOf(recipes, recipes, userId);
  }

  // ------------------------------------------------------------ internals

  private resultOf(all: readonly NeutralRecipe[], page: readonly NeutralRecipe[], viewerId: number | null): RecipeSearchResult {
    const bookmarks = this.bookmarksOf(viewerId);
    return {
      ResultCount: all.length,
      Results: page.map((r) => toRecipeInfo(r, this.posterOf(r), this.reviewStats(r.id), bookmarks)),
      SpellSuggest: null,
    };
  }

  private bookmarksOf(viewerId: number | null): ReadonlySet<number> | null {
    return viewerId === null ? null : this.listOf('favorites', viewerId);
  }

  private groceryItem(userId: number, ref: string): Mutable<NeutralGroceryItem> | null {
    let item: Mutable<NeutralGroceryItem> | undefined;
    if (GUID.test(ref)) {
      const guid = ref.toUpperCase();
      item = [...this.grocery.values()].find((i) => i.guid === guid);
    } else if (/^[0-9]+$/.test(ref)) {
      item = this.grocery.get(Number(ref));
    }
    return item && item.userId === userId ? item : null;
  }

  private toReview(review: NeutralReview): Review {
    const user = this.users.get(review.userId);
    return {
      ReviewID: review.id,
      RecipeID: review.recipeId,
      StarRating: review.rating,
      MakeAgain: review.makeAgain,
      Comment: review.comment,
      TotalMinutes: review.totalMinutes,
      ActiveMinutes: review.activeMinutes,
      Poster: {
        UserID: review.userId,
        UserName: user?.userName ?? null,
        ImageURL48: user ? avatarUrl48(user.avatarUrl) : null,
      },
      CreationDate: toLegacyDate(review.createdAtMs),
      LastModified: toLegacyDate(review.modifiedAtMs),
    };
  }
}


/** DECISION: LocalStatus is always UNMODIFIED (a client-side sync flag; the sample shows it). */
function toGroceryItem(item: NeutralGroceryItem): GroceryItem {
  return {
    ItemID: item.id,
    GUID: item.guid,
    RecipeID: item.recipeId,
    Name: item.name,
    Notes: item.notes,
    DisplayQuantity: item.quantity,
    Department: item.department,
    CreationDate: toLegacyDate(item.createdAtMs),
    IsChecked: item.isChecked,
    LocalStatus: 'UNMODIFIED',
    LastModified: toLegacyDate(item.modifiedAtMs),
    BigOvenObject: null,
    ThirdPartyURL: null,
  };
}

/**
 * The api2 sandbox's in-memory store: a fresh, mutable copy of the dataset per instance and the
 * api2 operations the gateway maps legacy calls to, answering api2 records (api2-records.ts) to
 * the routes of api2-routes.ts.
 *
 * It mirrors LegacyStore (legacy-store.ts) rule for rule, so that a legacy request answered by the
 * legacy sandbox and, through the mapping adapters, by this one reads the same:
 * - same search filters and order (ascending RecipeID), private and hidden recipes never in a
 *   public search; a private recipe exists for its poster only;
 * - one review per (user, recipe): a second POST updates the first; only the author may change or
 *   delete a review (403); updates replace every field (absent minutes → null);
 * - review and grocery ids come from the same counters (max + 1), in the same order, so ReviewID,
 *   ItemID and GUID equal the legacy ones; reviews of a recipe listed by ascending ReviewID;
 * - grocery lists are private: another user's item is 404;
 * - favorites and try soons keep the user's order.
 * Search text and the filter test are shared with LegacyStore (recipe-search.ts), and so are
 * loading the dataset, the credentials, review stats and the lookups on that state (both extend
 * DatasetStore, dataset-store.ts).
 *
 * DECISIONS (api2 specifics):
 * - search with `filter` reads the user's list in its order (like legacy readList: every entry the
 *   user can see, hidden-from-search ones included), then applies the other filters and paging.
 * - A grocery list's LastModified is its newest change (an item's, or a delete's), the dataset's
 *   BASE_EPOCH_MS for an empty list; VersionGuid changes with every change (api2-records.ts).
 * - The call counter `calls` ("METHOD /path" → count) is filled by the app (api2-app.ts).
 */
import type { NeutralGroceryItem, NeutralRecipe, NeutralReview } from './dataset/dataset.js';
import { guidFromCounter } from './dataset/dataset.js';
import { DatasetStore } from './dataset/dataset-store.js';
import type { DatasetList, DatasetStoreOptions, Mutable } from './dataset/dataset-store.js';
import type { Api2SearchQuery, GroceryBody, ReviewBody, SearchFilter } from './api2-input.js';
import { listVersionGuid, reviewIdOfGuid, toApi2GroceryItem, toApi2Review, toRecipeInfox, toShoppingListLine } from './api2-records.js';
import type { Sent } from './api2-records.js';
import type { GroceryList, RecipeInfox, RecipeSearchResult, Review, ShoppingListLine } from '../../mappings/api2-schemas.js';

export type Api2Result<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly status: 400 | 403 | 404; readonly message: string };

export type Api2StoreOptions = DatasetStoreOptions;

/** The api2 search filters over the dataset's lists. */
const LISTS: Readonly<Record<SearchFilter, DatasetList>> = { favorites: 'favorites', try: 'trySoons' };

const ok = <T>(value: T): Api2Result<T> => ({ ok: true, value });
const fail = <T>(status: 400 | 403 | 404, message: string): Api2Result<T> => ({ ok: false, status, message });

export class Api2Store extends DatasetStore {
  /** Requests per "METHOD /path/{template}", counted by the app for tests. */
  readonly calls: Record<string, number> = {};

  // ------------------------------------------------------------ recipes

  search(query: Api2SearchQuery, viewerId: number | null): Api2Result<Sent<typeof RecipeSearchResult>> {
    let matches: readonly NeutralRecipe[];
    if (query.filter) {
      if (viewerId === null) return fail(403, `filter=${query.filter} needs the user's credentials (HTTP Basic).`);
      const candidates = [...this.listOf(LISTS[query.filter], viewerId)].flatMap((id) => {
        const recipe = this.visibleRecipe(id, viewerId);
        return recipe ? [recipe] : [];
      });
      matches = this.searchMatches(candidates, query);
    } else {
      matches = this.publicMatches(query);
    }
    const start = (query.page - 1) * query.perPage;
    return ok({
      ResultCount: matches.length,
      Results: matches.slice(start, start + query.perPage).map((r) => this.recipeInfox(r, viewerId)),
    });
  }

  /** The recipe as api2's RecipeInfox, as the viewer sees it (IsBookmark from the viewer's favorites). */
  recipeInfox(recipe: NeutralRecipe, viewerId: number | null): Sent<typeof RecipeInfox> {
    const bookmarks = viewerId === null ? null : this.listOf('favorites', viewerId);
    return toRecipeInfox(recipe, this.posterOf(recipe), this.reviewStats(recipe.id), bookmarks);
  }

  // ------------------------------------------------------------ reviews

  /** DECISION: pages of the ascending-ReviewID list (legacy lists them all, unpaged). */
  listReviews(recipeId: number, viewerId: number | null, page: number, perPage: number): Api2Result<Sent<typeof Review>[]> {
    if (!this.visibleRecipe(recipeId, viewerId)) return fail(404, `Recipe ${recipeId} was not found.`);
    const ids = [...(this.reviewsByRecipe.get(recipeId) ?? [])].sort((a, b) => a - b);
    const start = (page - 1) * perPage;
    return ok(ids.slice(start, start + perPage).flatMap((id) => this.reviewRecord(id) ?? []));
  }

  myReview(userId: number, recipeId: number): Api2Result<Sent<typeof Review>> {
    if (!this.visibleRecipe(recipeId, userId)) return fail(404, `Recipe ${recipeId} was not found.`);
    const own = this.ownReview(userId, recipeId);
    return own ? ok(toApi2Review(own, this.users.get(own.userId) ?? null)) : fail(404, `You have no review of recipe ${recipeId}.`);
  }

  /** POST /recipe/{recipeId}/review: creates, or updates the caller's existing review. */
  postReview(userId: number, recipeId: number, input: ReviewBody): Api2Result<Sent<typeof Review>> {
    if (!this.visibleRecipe(recipeId, userId)) return fail(404, `Recipe ${recipeId} was not found.`);
    const own = this.ownReview(userId, recipeId);
    if (own) return this.changeReview(userId, own.id, input);
    const now = this.now();
    const review: NeutralReview = { id: this.data.nextReviewId, recipeId, userId, ...this.reviewFields(input), createdAtMs: now, modifiedAtMs: now };
    this.putReview({ ...review });
    return ok(toApi2Review(review, this.users.get(userId) ?? null));
  }

  /**
   * By string-style ID, and [I] by the old integer ReviewID: api2-notes map the legacy
   * GET /review/{id} to this endpoint, and a review carries both ids.
   */
  reviewByGuid(id: string): Api2Result<Sent<typeof Review>> {
    const reviewId = /^[0-9]{1,10}$/.test(id) ? Number(id) : reviewIdOfGuid(id);
    const review = reviewId === null ? null : this.reviewRecord(reviewId);
    return review ? ok(review) : fail(404, `Review ${id} was not found.`);
  }

  updateReviewByGuid(userId: number, id: string, input: ReviewBody): Api2Result<Sent<typeof Review>> {
    const reviewId = reviewIdOfGuid(id);
    if (reviewId === null || !this.reviews.has(reviewId)) return fail(404, `Review ${id} was not found.`);
    return this.changeReview(userId, reviewId, input);
  }

  /** The deprecated integer forms: the review must belong to the recipe, else 404. */
  reviewOfRecipe(recipeId: number, reviewId: number): Api2Result<Sent<typeof Review>> {
    const review = this.reviews.get(reviewId);
    if (!review || review.recipeId !== recipeId) return fail(404, `Review ${reviewId} of recipe ${recipeId} was not found.`);
    return ok(toApi2Review(review, this.users.get(review.userId) ?? null));
  }

  updateReviewOfRecipe(userId: number, recipeId: number, reviewId: number, input: ReviewBody): Api2Result<Sent<typeof Review>> {
    const found = this.reviewOfRecipe(recipeId, reviewId);
    return found.ok ? this.changeReview(userId, reviewId, input) : found;
  }

  deleteReviewOfRecipe(userId: number, recipeId: number, reviewId: number): Api2Result<null> {
    const review = this.reviews.get(reviewId);
    if (!review || review.recipeId !== recipeId) return fail(404, `Review ${reviewId} of recipe ${recipeId} was not found.`);
    if (review.userId !== userId) return fail(403, `Review ${reviewId} belongs to another user.`);
    this.removeReview(review);
    return ok(null);
  }

  // ------------------------------------------------------------ grocery list

  groceryList(userId: number): Sent<typeof GroceryList> {
    const items = [...this.grocery.values()].filter((i) => i.userId === userId).sort((a, b) => a.id - b.id);
    const meta = this.data.groceryListMeta(userId);
    return {
      Items: items.map(toApi2GroceryItem),
      Recipes: [],
      LastModified: new Date(meta.lastModifiedMs).toISOString(),
      VersionGuid: listVersionGuid(userId, meta.version),
    };
  }

  addGroceryItem(userId: number, input: GroceryBody): Sent<typeof ShoppingListLine> {
    const id = this.data.nextItemId++;
    const now = this.now();
    const item: NeutralGroceryItem = {
      id,
      guid: guidFromCounter(id),
      userId,
      recipeId: null,
      name: input.name,
      quantity: input.quantity,
      notes: input.notes,
      department: input.department,
      isChecked: input.isChecked ?? null,
      createdAtMs: now,
      modifiedAtMs: now,
    };
    this.grocery.set(id, { ...item });
    this.data.touchGroceryList(userId, now);
    return toShoppingListLine(item);
  }

  updateGroceryItem(userId: number, guid: string, input: GroceryBody): Api2Result<null> {
    const item = this.groceryItem(userId, guid);
    if (!item) return fail(404, `Grocery list item ${guid} was not found.`);
    if (input.guid !== undefined && input.guid.toUpperCase() !== item.guid) return fail(400, 'The request is invalid: guid must be the GUID of the path.');
    const now = this.now();
    Object.assign(item, {
      name: input.name,
      quantity: input.quantity,
      notes: input.notes,
      department: input.department,
      ...(input.isChecked !== undefined ? { isChecked: input.isChecked } : {}),
      modifiedAtMs: now,
    });
    this.data.touchGroceryList(userId, now);
    return ok(null);
  }

  deleteGroceryItem(userId: number, guid: string): Api2Result<null> {
    const item = this.groceryItem(userId, guid);
    if (!item) return fail(404, `Grocery list item ${guid} was not found.`);
    this.grocery.delete(item.id);
    this.data.touchGroceryList(userId, this.now());
    return ok(null);
  }

  // ------------------------------------------------------------ internals

  private reviewFields(input: ReviewBody): Pick<NeutralReview, 'rating' | 'makeAgain' | 'comment' | 'totalMinutes' | 'activeMinutes'> {
    return { rating: input.rating, makeAgain: input.makeAgain, comment: input.comment, totalMinutes: input.totalMinutes, activeMinutes: input.activeMinutes };
  }

  private changeReview(userId: number, reviewId: number, input: ReviewBody): Api2Result<Sent<typeof Review>> {
    const review = this.reviews.get(reviewId);
    if (!review) return fail(404, `Review ${reviewId} was not found.`);
    if (review.userId !== userId) return fail(403, `Review ${reviewId} belongs to another user.`);
    Object.assign(review, { ...this.reviewFields(input), modifiedAtMs: this.now() });
    return ok(toApi2Review(review, this.users.get(review.userId) ?? null));
  }

  private reviewRecord(reviewId: number): Sent<typeof Review> | null {
    const review = this.reviews.get(reviewId);
    return review ? toApi2Review(review, this.users.get(review.userId) ?? null) : null;
  }

  /** The user's item of that GUID (any case); another user's item is not found. */
  private groceryItem(userId: number, guid: string): Mutable<NeutralGroceryItem> | null {
    const wanted = guid.toUpperCase();
    const item = [...this.grocery.values()].find((i) => i.guid === wanted);
    return item && item.userId === userId ? item : null;
  }
}


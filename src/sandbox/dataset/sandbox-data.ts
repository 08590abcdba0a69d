/**
 * The one mutable dataset the sandbox serves: loaded once from the generated dataset
 * (dataset.ts) and indexed; read and written by the legacy store (../legacy-store.ts) and the api2
 * store (api2-store.ts) alike, as in production both interfaces front the same service data.
 * Hand one SandboxData to both stores (createSandboxStores in shared-stores.ts) and a write made
 * through either interface is read through the other.
 *
 * Review and grocery ids continue from the dataset's (max + 1) through the counters here, so two
 * separate SandboxData instances given the same writes in the same order hand out the same
 * ReviewID, ItemID and GUID (the parity tests rely on it).
 */
import { BASE_EPOCH_MS, buildDataset } from './dataset.js';
import type { NeutralGroceryItem, NeutralRecipe, NeutralReview, SandboxDataset, SandboxUser } from './dataset.js';
import { searchTextOf } from './recipe-search.js';
import type { SearchText } from './recipe-search.js';

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The dataset's per-user recipe lists, in the user's order (legacy favorites / trysoons, api2 filter favorites / try). */
export type DatasetList = 'favorites' | 'trySoons';

/** A user's grocery list version (api2's VersionGuid) and newest change (api2's LastModified). */
export interface GroceryListMeta {
  version: number;
  lastModifiedMs: number;
}

export class SandboxData {
  readonly users = new Map<number, SandboxUser>();
  readonly recipes = new Map<number, NeutralRecipe>();
  readonly searchText = new Map<number, SearchText>();
  readonly reviews = new Map<number, Mutable<NeutralReview>>();
  readonly reviewsByRecipe = new Map<number, Set<number>>();
  readonly grocery = new Map<number, Mutable<NeutralGroceryItem>>();
  readonly lists: Record<DatasetList, Map<number, Set<number>>> = { favorites: new Map(), trySoons: new Map() };
  private readonly groceryMeta = new Map<number, GroceryListMeta>();
  nextReviewId = 1;
  nextItemId = 1;

  constructor(dataset?: SandboxDataset) {
    // structuredClone: never mutates a dataset it was given, nor shares it with another SandboxData.
    const data = structuredClone(dataset ?? buildDataset());
    for (const user of data.users) this.users.set(user.userId, user);
    for (const recipe of data.recipes) {
      this.recipes.set(recipe.id, recipe);
      this.searchText.set(recipe.id, searchTextOf(recipe));
    }
    for (const review of data.reviews) this.putReview({ ...review });
    for (const item of data.groceryItems) {
      this.grocery.set(item.id, { ...item });
      this.nextItemId = Math.max(this.nextItemId, item.id + 1);
      const meta = this.groceryListMeta(item.userId);
      meta.lastModifiedMs = Math.max(meta.lastModifiedMs, item.modifiedAtMs);
    }
    for (const entry of data.favorites) this.listOf('favorites', entry.userId).add(entry.recipeId);
    for (const entry of data.trySoons) this.listOf('trySoons', entry.userId).add(entry.recipeId);
  }

  /** Stores the review (the object itself) and indexes it by recipe; nextReviewId follows the largest id. */
  putReview(review: Mutable<NeutralReview>): void {
    this.reviews.set(review.id, review);
    let ids = this.reviewsByRecipe.get(review.recipeId);
    if (!ids) this.reviewsByRecipe.set(review.recipeId, (ids = new Set()));
    ids.add(review.id);
    this.nextReviewId = Math.max(this.nextReviewId, review.id + 1);
  }

  removeReview(review: NeutralReview): void {
    this.reviews.delete(review.id);
    this.reviewsByRecipe.get(review.recipeId)?.delete(review.id);
  }

  /** The user's list (created empty on first use), in the user's order. */
  listOf(list: DatasetList, userId: number): Set<number> {
    let entries = this.lists[list].get(userId);
    if (!entries) this.lists[list].set(userId, (entries = new Set()));
    return entries;
  }

  /** DECISION: an empty list's LastModified is the dataset's BASE_EPOCH_MS. */
  groceryListMeta(userId: number): GroceryListMeta {
    let meta = this.groceryMeta.get(userId);
    if (!meta) this.groceryMeta.set(userId, (meta = { version: 1, lastModifiedMs: BASE_EPOCH_MS }));
    return meta;
  }

  /** Every grocery write, through either interface, makes a new list version. */
  touchGroceryList(userId: number, now: number): void {
    const meta = this.groceryListMeta(userId);
    meta.version += 1;
    meta.lastModifiedMs = now;
  }
}

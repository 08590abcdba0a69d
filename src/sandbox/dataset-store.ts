/**
 * What both sandbox stores hold and read alike (LegacyStore in legacy-store.ts, Api2Store in
 * api2-store.ts extend it): a fresh, mutable copy of the shared dataset (dataset.ts) per instance,
 * so tests never share state, loaded and indexed in one place; the sandbox credentials; review
 * stats; and the lookups both stores make on that state. Each store adds its own operations and
 * records on top; what differs between the two backends stays in the stores.
 *
 * Review and grocery ids continue from the dataset's (max + 1) through the same counters in both
 * stores, so the same writes in the same order get the same ReviewID, ItemID and GUID from either.
 */
import { buildDataset, planOfKey, SANDBOX_LOGINS } from './dataset.js';
import type { NeutralGroceryItem, NeutralRecipe, NeutralReview, Plan, ReviewStats, SandboxDataset, SandboxUser } from './dataset.js';
import { searchTextOf } from './recipe-search.js';
import type { SearchText } from './recipe-search.js';

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The dataset's per-user recipe lists, in the user's order (legacy favorites / trysoons, api2 filter favorites / try). */
export type DatasetList = 'favorites' | 'trySoons';

export interface DatasetStoreOptions {
  readonly dataset?: SandboxDataset;
  /** Clock for records created or changed at run time; the dataset itself never reads a clock. */
  readonly now?: () => number;
}

export abstract class DatasetStore {
  protected readonly now: () => number;
  protected readonly users = new Map<number, SandboxUser>();
  protected readonly recipes = new Map<number, NeutralRecipe>();
  protected readonly searchText = new Map<number, SearchText>();
  protected readonly reviews = new Map<number, Mutable<NeutralReview>>();
  protected readonly reviewsByRecipe = new Map<number, Set<number>>();
  protected readonly grocery = new Map<number, Mutable<NeutralGroceryItem>>();
  private readonly lists: Record<DatasetList, Map<number, Set<number>>> = { favorites: new Map(), trySoons: new Map() };
  protected nextReviewId = 1;
  protected nextItemId = 1;

  constructor(options: DatasetStoreOptions = {}) {
    // structuredClone: a store never mutates a dataset it was given, nor shares it with another store.
    const data = structuredClone(options.dataset ?? buildDataset());
    this.now = options.now ?? (() => Date.now());
    for (const user of data.users) this.users.set(user.userId, user);
    for (const recipe of data.recipes) {
      this.recipes.set(recipe.id, recipe);
      this.searchText.set(recipe.id, searchTextOf(recipe));
    }
    for (const review of data.reviews) this.putReview({ ...review });
    for (const item of data.groceryItems) {
      this.grocery.set(item.id, { ...item });
      this.nextItemId = Math.max(this.nextItemId, item.id + 1);
    }
    for (const entry of data.favorites) this.listOf('favorites', entry.userId).add(entry.recipeId);
    for (const entry of data.trySoons) this.listOf('trySoons', entry.userId).add(entry.recipeId);
  }

  // ------------------------------------------------------------ credentials

  planOf(apiKey: string): Plan | null {
    return planOfKey(apiKey);
  }

  /** DECISION: user names match without regard to case, passwords exactly. */
  authenticate(userName: string, password: string): SandboxUser | null {
    const login = Object.values(SANDBOX_LOGINS).find((l) => l.user === userName.toLowerCase());
    if (!login || login.password !== password) return null;
    return this.users.get(login.userId) ?? null;
  }

  // ------------------------------------------------------------ recipes

  reviewStats(recipeId: number): ReviewStats {
    const ids = this.reviewsByRecipe.get(recipeId);
    if (!ids || ids.size === 0) return { count: 0, average: 0 };
    let sum = 0;
    for (const id of ids) sum += this.reviews.get(id)?.rating ?? 0;
    return { count: ids.size, average: sum / ids.size };
  }

  /** A private recipe exists for its poster only; to anybody else it is not found. */
  protected visibleRecipe(recipeId: number, viewerId: number | null): NeutralRecipe | null {
    const recipe = this.recipes.get(recipeId);
    if (!recipe || (recipe.isPrivate && recipe.posterUserId !== viewerId)) return null;
    return recipe;
  }

  protected posterOf(recipe: NeutralRecipe): SandboxUser | null {
    return recipe.posterUserId === null ? null : (this.users.get(recipe.posterUserId) ?? null);
  }

  // ------------------------------------------------------------ reviews

  /** Stores the review (the object itself) and indexes it by recipe; nextReviewId follows the largest id. */
  protected putReview(review: Mutable<NeutralReview>): void {
    this.reviews.set(review.id, review);
    let ids = this.reviewsByRecipe.get(review.recipeId);
    if (!ids) this.reviewsByRecipe.set(review.recipeId, (ids = new Set()));
    ids.add(review.id);
    this.nextReviewId = Math.max(this.nextReviewId, review.id + 1);
  }

  protected removeReview(review: NeutralReview): void {
    this.reviews.delete(review.id);
    this.reviewsByRecipe.get(review.recipeId)?.delete(review.id);
  }

  /** The user's review of the recipe (one per user and recipe), if any. */
  protected ownReview(userId: number, recipeId: number): Mutable<NeutralReview> | undefined {
    return [...(this.reviewsByRecipe.get(recipeId) ?? [])].map((id) => this.reviews.get(id)).find((r) => r?.userId === userId);
  }

  // ------------------------------------------------------------ favorites and try soons

  /** The user's list (created empty on first use), in the user's order. */
  protected listOf(list: DatasetList, userId: number): Set<number> {
    let entries = this.lists[list].get(userId);
    if (!entries) this.lists[list].set(userId, (entries = new Set()));
    return entries;
  }
}

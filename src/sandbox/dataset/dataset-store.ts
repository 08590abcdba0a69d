/**
 * What both sandbox stores read alike (LegacyStore in ../legacy-store.ts, Api2Store in
 * ../api2-store.ts extend it): the data they serve (SandboxData, sandbox-data.ts: shared when one instance is
 * handed to both, a fresh copy of the dataset otherwise, so tests never share state by accident),
 * the sandbox credentials, review stats, and the lookups both stores make on that data. Each store
 * adds its own operations and records on top; what differs between the two backends stays in the
 * stores.
 */
import { planOfKey, sandboxLogin } from './dataset.js';
import type { NeutralRecipe, NeutralReview, Plan, ReviewStats, SandboxDataset, SandboxUser } from './dataset.js';
import { SandboxData } from './sandbox-data.js';
import { remembered } from '../../hot-path.js';
import { recipeFilter } from './recipe-search.js';
import type { RecipeFilters } from './recipe-search.js';
import type { DatasetList, Mutable } from './sandbox-data.js';

export type { DatasetList, Mutable } from './sandbox-data.js';

export interface DatasetStoreOptions {
  /** The data to serve, shared with another store; default: a fresh copy of `dataset`. */
  readonly data?: SandboxData;
  readonly dataset?: SandboxDataset;
  /** Clock for records created or changed at run time; the dataset itself never reads a clock. */
  readonly now?: () => number;
}

const PUBLIC_SEARCHES_KEPT = 256;

export abstract class DatasetStore {
  protected readonly now: () => number;
  protected readonly data: SandboxData;

  constructor(options: DatasetStoreOptions = {}) {
    this.data = options.data ?? new SandboxData(options.dataset);
    this.now = options.now ?? (() => Date.now());
  }

  protected get users() {
    return this.data.users;
  }
  protected get recipes() {
    return this.data.recipes;
  }
  protected get searchText() {
    return this.data.searchText;
  }

  /**
   * The recipes a search without a user's list sees (neither private nor hidden from search) that
   * pass the filters, in their order. Remembered per filters: the recipes never change once loaded
   * (writes touch reviews, lists and grocery items), and the demo's traffic repeats its searches;
   * at most PUBLIC_SEARCHES_KEPT, then all forgotten at once.
   */
  protected publicMatches(filters: RecipeFilters): readonly NeutralRecipe[] {
    // Every filter in the key: a filter added to RecipeFilters and not here does not compile.
    const { titleKw, anyKw, categories, cuisine, photos, includeIng, excludeIng } = filters;
    return this.publicSearch(JSON.stringify({ titleKw, anyKw, categories, cuisine, photos, includeIng, excludeIng } satisfies Required<Record<keyof RecipeFilters, unknown>>));
  }
  /** By the filters' JSON (read back on a miss: the same filters, undefined ones left out). */
  private readonly publicSearch = remembered(PUBLIC_SEARCHES_KEPT, (key: string): readonly NeutralRecipe[] => {
    this.publicRecipes ??= [...this.recipes.values()].filter((r) => !r.isPrivate && !r.hideFromPublicSearch);
    return this.searchMatches(this.publicRecipes, JSON.parse(key) as RecipeFilters);
  });
  private publicRecipes: NeutralRecipe[] | undefined;

  /** The candidates that pass the search filters (recipe-search.ts), in their order: the filter made once per search. */
  protected searchMatches(candidates: Iterable<NeutralRecipe>, filters: RecipeFilters): NeutralRecipe[] {
    const filter = recipeFilter(filters);
    const matches: NeutralRecipe[] = [];
    for (const recipe of candidates) {
      const text = this.searchText.get(recipe.id);
      if (text !== undefined && filter(recipe, text)) matches.push(recipe);
    }
    return matches;
  }
  protected get reviews() {
    return this.data.reviews;
  }
  protected get reviewsByRecipe() {
    return this.data.reviewsByRecipe;
  }
  protected get grocery() {
    return this.data.grocery;
  }

  // ------------------------------------------------------------ credentials

  planOf(apiKey: string): Plan | null {
    return planOfKey(apiKey);
  }

  /** DECISION: user names match without regard to case, passwords exactly. */
  authenticate(userName: string, password: string): SandboxUser | null {
    const login = sandboxLogin(userName.toLowerCase());
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
  visibleRecipe(recipeId: number, viewerId: number | null): NeutralRecipe | null {
    const recipe = this.recipes.get(recipeId);
    if (!recipe || (recipe.isPrivate && recipe.posterUserId !== viewerId)) return null;
    return recipe;
  }

  posterOf(recipe: NeutralRecipe): SandboxUser | null {
    return recipe.posterUserId === null ? null : (this.users.get(recipe.posterUserId) ?? null);
  }

  // ------------------------------------------------------------ reviews

  protected putReview(review: Mutable<NeutralReview>): void {
    this.data.putReview(review);
  }

  protected removeReview(review: NeutralReview): void {
    this.data.removeReview(review);
  }

  /** The user's review of the recipe (one per user and recipe), if any. */
  protected ownReview(userId: number, recipeId: number): Mutable<NeutralReview> | undefined {
    return [...(this.reviewsByRecipe.get(recipeId) ?? [])].map((id) => this.reviews.get(id)).find((r) => r?.userId === userId);
  }

  // ------------------------------------------------------------ favorites and try soons

  /** The user's list (created empty on first use), in the user's order. */
  protected listOf(list: DatasetList, userId: number): Set<number> {
    return this.data.listOf(list, userId);
  }
}

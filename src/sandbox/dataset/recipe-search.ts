/**
 * The search semantics both sandbox backends share, so the same recipe is found the same way
 * through legacy and api2: lower-cased search text per recipe, and the filter test.
 * title_kw: a substring of the title; any_kw: of title, ingredients, category, cuisine or
 * instructions; category: one of the tokens; cuisine: equal without regard to case; photos: has
 * one; include_ing / exclude_ing: each wanted ingredient is (not) a substring of some ingredient.
 */
import type { PrimaryCategoryToken } from '../../legacy/param-rules.js';
import type { NeutralRecipe } from './dataset.js';

export interface SearchText {
  readonly title: string;
  readonly cuisine: string;
  readonly ingredients: readonly string[];
  readonly anywhere: string;
}

export interface RecipeFilters {
  readonly titleKw?: string | undefined;
  readonly anyKw?: string | undefined;
  readonly categories?: readonly PrimaryCategoryToken[] | undefined;
  readonly cuisine?: string | undefined;
  readonly photos?: boolean | undefined;
  readonly includeIng?: readonly string[] | undefined;
  readonly excludeIng?: readonly string[] | undefined;
}

export function searchTextOf(recipe: NeutralRecipe): SearchText {
  const ingredients = recipe.ingredients.map((i) => i.toLowerCase());
  const cuisine = (recipe.cuisine ?? '').toLowerCase();
  return {
    title: recipe.title.toLowerCase(),
    cuisine,
    ingredients,
    // \n separates fields so a keyword never matches across two of them.
    anywhere: [recipe.title, ...ingredients, recipe.categoryName, cuisine, recipe.instructions].join('\n').toLowerCase(),
  };
}

export function matchesFilters(recipe: NeutralRecipe, text: SearchText, q: RecipeFilters): boolean {
  if (q.titleKw && !text.title.includes(q.titleKw.toLowerCase())) return false;
  if (q.anyKw && !text.anywhere.includes(q.anyKw.toLowerCase())) return false;
  if (q.categories && !q.categories.includes(recipe.categoryToken)) return false;
  if (q.cuisine && text.cuisine !== q.cuisine.toLowerCase()) return false;
  if (q.photos && recipe.photoUrl === null) return false;
  const has = (wanted: string): boolean => text.ingredients.some((i) => i.includes(wanted.toLowerCase()));
  if (q.includeIng && !q.includeIng.every(has)) return false;
  if (q.excludeIng && q.excludeIng.some(has)) return false;
  return true;
}

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

/** The filter test of `q`, made once per search: its keywords lowered once, not once per recipe. */
export function recipeFilter(q: RecipeFilters): (recipe: NeutralRecipe, text: SearchText) => boolean {
  const titleKw = q.titleKw?.toLowerCase();
  const anyKw = q.anyKw?.toLowerCase();
  const cuisine = q.cuisine?.toLowerCase();
  const includeIng = q.includeIng?.map((wanted) => wanted.toLowerCase());
  const excludeIng = q.excludeIng?.map((wanted) => wanted.toLowerCase());
  return (recipe, text) => {
    if (titleKw && !text.title.includes(titleKw)) return false;
    if (anyKw && !text.anywhere.includes(anyKw)) return false;
    if (q.categories && !q.categories.includes(recipe.categoryToken)) return false;
    if (cuisine && text.cuisine !== cuisine) return false;
    if (q.photos && recipe.photoUrl === null) return false;
    const has = (wanted: string): boolean => text.ingredients.some((i) => i.includes(wanted));
    if (includeIng && !includeIng.every(has)) return false;
    if (excludeIng && excludeIng.some(has)) return false;
    return true;
  };
}

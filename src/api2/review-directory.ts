/**
 * What the review mappings remember: the recipe of each review seen in an api2 answer, so a later
 * delete (which api2 addresses by recipe id and review id) can be mapped without guessing.
 * Bounded (least recently used entries go first) and per gateway instance.
 */
import { LRUCache } from 'lru-cache';
import type { MappingMemory } from '../../mappings/types.js';

export function createMappingMemory(maxReviews = 100_000): MappingMemory {
  const recipes = new LRUCache<number, number>({ max: maxReviews });
  return {
    rememberReviewRecipe: (reviewId, recipeId) => void recipes.set(reviewId, recipeId),
    recipeOfReview: (reviewId) => recipes.get(reviewId),
  };
}

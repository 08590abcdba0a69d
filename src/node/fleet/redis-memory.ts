/**
 * Node-only: the review memory (which recipe a review belongs to, for api2-mode reviews.delete)
 * shared by every replica through Redis, with the per-process LRU in front. Redis out: the
 * per-process memory alone (as without Redis), never an error.
 */
import type { Redis } from 'ioredis';
import type { MappingMemory } from '../../../mappings/types.js';
import { createMappingMemory } from '../../api2/review-directory.js';
import type { TierBreaker } from '../../cache/tier-breaker.js';

/** DECISION: a review's recipe is remembered 30 days in Redis (renewed each time a review is seen). */
const REMEMBER_SECONDS = 30 * 24 * 3600;

export function createRedisMappingMemory(redis: Redis, keyPrefix: string, breaker: TierBreaker): MappingMemory {
  const local = createMappingMemory();
  const key = (reviewId: number) => `${keyPrefix}v1:review:${reviewId}`;
  return {
    rememberReviewRecipe(reviewId, recipeId) {
      local.rememberReviewRecipe(reviewId, recipeId);
      // Awaited by the mapping (bounded by the command timeout; Redis out: at once), so a replica
      // asked right after the answer finds the recipe.
      return breaker.run(async () => void (await redis.set(key(reviewId), String(recipeId), 'EX', REMEMBER_SECONDS)), undefined);
    },
    recipeOfReview(reviewId) {
      const known = local.recipeOfReview(reviewId);
      if (known !== undefined) return known;
      return breaker.run(async () => {
        const stored = await redis.get(key(reviewId));
        const recipeId = stored === null ? NaN : Number(stored);
        return Number.isSafeInteger(recipeId) ? recipeId : undefined;
      }, undefined);
    },
  };
}

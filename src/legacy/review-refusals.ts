/**
 * How the legacy backend refuses a review write, in its words (the sandbox legacy store answers
 * them; the api2 mapping of `reviews.update` gives the same answer where api2's would differ).
 * Checked in this order: the review exists (404), it is the user's (403), rid is its recipe (400).
 */
export const REVIEW_REFUSALS = {
  notFound: (reviewId: number) => `Review ${reviewId} was not found.`,
  anotherUsers: (reviewId: number) => `Review ${reviewId} belongs to another user.`,
  wrongRecipe: (reviewId: number) => `The request is invalid: rid must be the recipe of review ${reviewId}.`,
} as const;

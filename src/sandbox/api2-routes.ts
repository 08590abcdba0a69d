/**
 * The api2 sandbox's routes, one row each: method, path (the published spec's, `{name}` for a
 * path parameter), who must be authenticated, the api2 schema of its success answer (the one the
 * gateway reads it with, mappings/api2-schemas.ts: a handler's answer is typed by it), and the
 * handler. api2-app.ts matches, counts and checks credentials before a handler runs.
 *
 * DECISIONS: writes answer 200 (the spec documents only 200): POST review, DELETE review, PUT and
 * DELETE grocery item `{}`; PUT review the Review; POST grocery item the ShoppingListLine.
 * GET /recipe/review/{reviewId} takes the string-style ID (and the integer ReviewID, api2-store.ts).
 */
import type { z } from 'zod';
import { GroceryList, RecipeSearchResult, Review, ReviewList, ShoppingListLine, SystemObject } from '../../mappings/api2-schemas.js';
import { paidParamsOf, parseGroceryBody, parseReviewBody, parseSearch } from './api2-input.js';
import type { Sent } from './api2-records.js';
import { API2_MESSAGES, answer, answerWith, error, invalid, ok, pagingOf, userOf, viewerOf, withBody, withInts } from './api2-replies.js';
import type { Call, Reply } from './api2-replies.js';

export type Auth = 'key' | 'user';

export interface Api2Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly auth: Auth;
  readonly answers: z.ZodType;
  readonly handle: (call: Call) => Reply<unknown>;
}

function route<Schema extends z.ZodType>(method: Api2Route['method'], path: string, auth: Auth, answers: Schema, handle: (call: Call) => Reply<Sent<Schema>>): Api2Route {
  return { method, path, auth, answers, handle };
}

const EMPTY: Sent<typeof SystemObject> = {};

export const API2_ROUTES: readonly Api2Route[] = [
  route('GET', '/recipes', 'key', RecipeSearchResult, (c) => {
    const query = parseSearch(c.query);
    if (!query.ok) return invalid(query.errors);
    const paid = paidParamsOf(query.value);
    if (paid.length > 0 && c.plan === 'free') return error(403, API2_MESSAGES.paidOnly(paid));
    return answer(c.store.search(query.value, viewerOf(c)));
  }),
  route('GET', '/recipe/{recipeId}/reviews', 'key', ReviewList, (c) =>
    withInts(c, ['recipeId'], ([recipeId]) => {
      const paging = pagingOf(c.query);
      if (!paging.ok) return invalid(paging.errors);
      return answer(c.store.listReviews(recipeId, viewerOf(c), paging.value.page, paging.value.perPage));
    }),
  ),
  route('GET', '/recipe/{recipeId}/review', 'user', Review, (c) => withInts(c, ['recipeId'], ([recipeId]) => answer(c.store.myReview(userOf(c), recipeId)))),
  route('POST', '/recipe/{recipeId}/review', 'user', SystemObject, (c) =>
    withInts(c, ['recipeId'], ([recipeId]) => withBody(parseReviewBody(c.body), (body) => answerWith(c.store.postReview(userOf(c), recipeId, body), EMPTY))),
  ),
  route('GET', '/recipe/review/{reviewId}', 'key', Review, (c) => answer(c.store.reviewByGuid(c.params['reviewId'] ?? ''))),
  route('PUT', '/recipe/review/{reviewId}', 'user', Review, (c) =>
    withBody(parseReviewBody(c.body), (body) => answer(c.store.updateReviewByGuid(userOf(c), c.params['reviewId'] ?? '', body))),
  ),
  route('GET', '/recipe/{recipeId}/review/{reviewId}', 'key', Review, (c) =>
    withInts(c, ['recipeId', 'reviewId'], ([recipeId, reviewId]) => answer(c.store.reviewOfRecipe(recipeId, reviewId))),
  ),
  route('PUT', '/recipe/{recipeId}/review/{reviewId}', 'user', Review, (c) =>
    withInts(c, ['recipeId', 'reviewId'], ([recipeId, reviewId]) =>
      withBody(parseReviewBody(c.body), (body) => answer(c.store.updateReviewOfRecipe(userOf(c), recipeId, reviewId, body))),
    ),
  ),
  route('DELETE', '/recipe/{recipeId}/review/{reviewId}', 'user', SystemObject, (c) =>
    withInts(c, ['recipeId', 'reviewId'], ([recipeId, reviewId]) => answerWith(c.store.deleteReviewOfRecipe(userOf(c), recipeId, reviewId), EMPTY)),
  ),
  route('GET', '/grocerylist', 'user', GroceryList, (c) => ok(c.store.groceryList(userOf(c)))),
  route('POST', '/grocerylist/item', 'user', ShoppingListLine, (c) => withBody(parseGroceryBody(c.body), (body) => ok(c.store.addGroceryItem(userOf(c), body)))),
  route('PUT', '/grocerylist/item/{guid}', 'user', SystemObject, (c) =>
    withBody(parseGroceryBody(c.body), (body) => answerWith(c.store.updateGroceryItem(userOf(c), c.params['guid'] ?? '', body), EMPTY)),
  ),
  route('DELETE', '/grocerylist/item/{guid}', 'user', SystemObject, (c) => answerWith(c.store.deleteGroceryItem(userOf(c), c.params['guid'] ?? ''), EMPTY)),
];

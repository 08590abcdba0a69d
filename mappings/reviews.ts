/**
 * Reviews (api2-notes, reviews [C]):
 *   create  POST /recipe/{rid}/review (answers `{}`), then GET /recipe/{rid}/review to read it back
 *   get     GET /recipe/review/{id}
 *   list    GET /recipe/{rid}/reviews, every page
 *   update  PUT /recipe/{rid}/review/{id} (the integer-id form; rid is in the legacy request)
 *   delete  DELETE /recipe/{rid}/review/{id}: needs the recipe id, which the legacy request lacks
 */
import type { Review as LegacyReview } from '../src/legacy/records.js';
import { Review, ReviewList, SystemObject } from './api2-schemas.js';
import type { Review as Api2Review } from './api2-schemas.js';
import { expectOk } from './api2-call.js';
import { REVIEW_REFUSALS } from '../src/legacy/review-refusals.js';
import { Api2StatusError, LegacyRefusal, MappingRefusal, parseApi2 } from './errors.js';
import { legacyDateOf } from './recipe-info.js';
import type { Api2Port, LegacyCall, Loss, OperationMapping } from './types.js';

type MakeAgain = 'yes' | 'no' | 'notmake';

/**
 * DECISION: a review whose recipe neither api2 nor the gateway's memory can name is answered with
 * `RecipeID` 0, never null: the legacy type is a number (the .NET service's `int RecipeID`, whose
 * unset value is 0; a typed client with an int field cannot read null), and no recipe has id 0
 * (ids are positive), so a client can still tell the recipe is unknown.
 */
export const UNKNOWN_RECIPE_ID = 0;

/** api2 Review → legacy Review. Pure. `makeAgain` and `recipeId` come from the request or the memory when known. */
export function legacyReviewOf(review: Api2Review, recipeId: number | undefined, makeAgain: MakeAgain | null): LegacyReview {
  return {
    ReviewID: review.ReviewID,
    RecipeID: recipeId ?? UNKNOWN_RECIPE_ID,
    StarRating: Math.round(review.StarRating ?? 0),
    MakeAgain: makeAgain,
    Comment: review.Comment ?? '',
    TotalMinutes: review.TotalMinutes ?? null,
    ActiveMinutes: review.ActiveMinutes ?? null,
    Poster: {
      UserID: review.Poster?.UserID ?? 0,
      UserName: review.Poster?.UserName ?? null,
      ImageURL48: review.Poster?.ImageUrl48 ?? null,
    },
    CreationDate: legacyDateOf(review.CreationDate),
    LastModified: legacyDateOf(review.LastModified),
  };
}

/** Legacy review fields → api2 ReviewRequest. Pure. `notmake` has no api2 value and is not sent. */
export function api2ReviewBody(values: LegacyCall['values']): Record<string, unknown> {
  const makeAgain = values['makeagain'] as MakeAgain;
  return {
    StarRating: values['rating'],
    ...(makeAgain === 'notmake' ? {} : { MakeAgain: makeAgain }),
    Comment: values['message'],
    ...(values['totaltime'] !== undefined ? { TotalMinutes: values['totaltime'] } : {}),
    ...(values['activetime'] !== undefined ? { ActiveMinutes: values['activetime'] } : {}),
  };
}

const MAKE_AGAIN_LOSS: Loss = { field: 'MakeAgain', fill: null, why: 'the api2 Review has no MakeAgain field' };
const NOTMAKE = 'makeagain=notmake has no api2 value: it is not sent to api2 (api2 keeps no answer), and the legacy answer echoes it';
const ONE_PER_USER = 'api2 keeps one review per user and recipe: a second create updates the first (the sandbox legacy backend does the same)';

export const reviewsCreateMapping: OperationMapping = {
  api2Calls: ['POST /recipe/{rid}/review', 'GET /recipe/{rid}/review'],
  losses: [],
  differences: [ONE_PER_USER, NOTMAKE],
  inferences: [],
  async run(call, api2, { memory }) {
    const rid = call.values['rid'] as number;
    const write = await expectOk(api2, { method: 'POST', path: `/recipe/${rid}/review`, body: api2ReviewBody(call.values) });
    parseApi2(SystemObject, write.body, 'POST /recipe/{rid}/review');
    const read = await expectOk(api2, { method: 'GET', path: `/recipe/${rid}/review` });
    const review = parseApi2(Review, read.body, 'GET /recipe/{rid}/review');
    await memory.rememberReviewRecipe(review.ReviewID, rid);
    return { status: 200, body: legacyReviewOf(review, rid, call.values['makeagain'] as MakeAgain) };
  },
};

export const reviewsGetMapping: OperationMapping = {
  api2Calls: ['GET /recipe/review/{id}'],
  losses: [
    MAKE_AGAIN_LOSS,
    {
      field: 'RecipeID',
      fill: UNKNOWN_RECIPE_ID,
      why: 'the api2 Review does not name its recipe: the gateway answers the recipe it remembers for the review (seen in a create, an update or the reviews of a recipe, by this gateway or any replica sharing its Redis), and 0 for a review it never saw',
    },
  ],
  differences: [],
  inferences: ['GET /recipe/review/{reviewId} takes the string-style id; api2 answers it for the old integer ReviewID too, as api2-notes map GET /review/{id} to it [I]'],
  async run(call, api2, { memory }) {
    const id = call.values['id'] as number;
    // Asked together: a memory shared through Redis answers while api2 does.
    const [reply, recipeId] = await Promise.all([expectOk(api2, { method: 'GET', path: `/recipe/review/${id}` }), memory.recipeOfReview(id)]);
    return { status: 200, body: legacyReviewOf(parseApi2(Review, reply.body, 'GET /recipe/review/{id}'), recipeId, null) };
  },
};

/** DECISION: pages of 50, at most 40 pages (2,000 reviews) per recipe. */
const REVIEW_PAGE = 50;
const REVIEW_MAX_PAGES = 40;

export const reviewsListMapping: OperationMapping = {
  api2Calls: ['GET /recipe/{rid}/reviews (every page)'],
  losses: [{ ...MAKE_AGAIN_LOSS, field: '[].MakeAgain' }],
  differences: [`a recipe with more than ${REVIEW_PAGE * REVIEW_MAX_PAGES} reviews is refused with 409 rather than read in full`],
  inferences: [],
  async run(call, api2, { memory }) {
    const rid = call.values['rid'] as number;
    const reviews: Api2Review[] = [];
    for (let pg = 1; pg <= REVIEW_MAX_PAGES; pg++) {
      const reply = await expectOk(api2, { method: 'GET', path: `/recipe/${rid}/reviews`, query: { pg, rpp: REVIEW_PAGE } });
      const page = parseApi2(ReviewList, reply.body, 'GET /recipe/{rid}/reviews');
      reviews.push(...page);
      if (page.length < REVIEW_PAGE) {
        await Promise.all(reviews.map((review) => memory.rememberReviewRecipe(review.ReviewID, rid)));
        return { status: 200, body: reviews.map((review) => legacyReviewOf(review, rid, null)) };
      }
    }
    throw new MappingRefusal(409, `Recipe ${rid} has more than ${REVIEW_PAGE * REVIEW_MAX_PAGES} reviews; through api2 the gateway reads at most that many.`);
  },
};

export const reviewsUpdateMapping: OperationMapping = {
  api2Calls: ['PUT /recipe/{rid}/review/{id}'],
  losses: [],
  differences: [
    NOTMAKE,
    'a rid that is not the review\'s recipe: api2 answers 404; for a review whose recipe the gateway remembers (see reviews.get), it answers as the legacy backend does (400, or 403 for another user\'s review) after two api2 reads; for a review it never saw, 404 where the legacy backend answers 400',
    'uses api2\'s integer-id update (marked deprecated in the spec) because the legacy request carries integer ids',
  ],
  inferences: ['GET /recipe/{rid}/review/{id} (deprecated) answers 404 for a review of another recipe, as its path says'],
  async run(call, api2, { memory }) {
    const id = call.values['id'] as number;
    const rid = call.values['rid'] as number;
    let reply;
    try {
      reply = await expectOk(api2, { method: 'PUT', path: `/recipe/${rid}/review/${id}`, body: api2ReviewBody(call.values) });
    } catch (error) {
      if (error instanceof Api2StatusError && error.status === 404) {
        await refuseAsLegacy(api2, id, rid, await memory.recipeOfReview(id), error);
        throw new LegacyRefusal(404, REVIEW_REFUSALS.notFound(id), error);
      }
      throw error;
    }
    const review = parseApi2(Review, reply.body, 'PUT /recipe/{rid}/review/{id}');
    await memory.rememberReviewRecipe(review.ReviewID, rid);
    return { status: 200, body: legacyReviewOf(review, rid, call.values['makeagain'] as MakeAgain) };
  },
};

/**
 * api2 answered 404 to an update of review `id` in recipe `rid`. When the gateway remembers the
 * review in another recipe, the legacy backend's answer is found by reading api2 (its checks run
 * in this order: the review exists, it is the user's, rid is its recipe): the caller's own review
 * of the remembered recipe is this one → 400; the recipe has this review, someone else's → 403;
 * else (the memory is out of date, or the review is gone) the 404 stands, in legacy's words.
 */
async function refuseAsLegacy(api2: Api2Port, id: number, rid: number, known: number | undefined, notFound: Api2StatusError): Promise<void> {
  if (known === undefined || known === rid) return;
  const own = await api2({ method: 'GET', path: `/recipe/${known}/review` });
  if (own.status === 200 && parseApi2(Review, own.body, 'GET /recipe/{rid}/review').ReviewID === id) {
    throw new LegacyRefusal(400, REVIEW_REFUSALS.wrongRecipe(id), notFound);
  }
  const listed = await api2({ method: 'GET', path: `/recipe/${known}/review/${id}` });
  if (listed.status === 200) throw new LegacyRefusal(403, REVIEW_REFUSALS.anotherUsers(id), notFound);
}

export const reviewsDeleteMapping: OperationMapping = {
  api2Calls: ['DELETE /recipe/{rid}/review/{id}'],
  losses: [],
  differences: [
    'api2 deletes a review only by recipe id and review id. The recipe id is taken from an optional rid parameter, or from an earlier api2 answer this gateway mapped (create, update, reviews of a recipe); when neither knows it, the request is refused with 409 and a message saying so: the gateway never guesses',
  ],
  inferences: [],
  async run(call, api2, { memory }) {
    const id = call.values['id'] as number;
    const rid = (call.values['rid'] as number | undefined) ?? (await memory.recipeOfReview(id));
    if (rid === undefined) {
      throw new MappingRefusal(
        409,
        `Review ${id} cannot be deleted through api2: api2 needs its recipe id, which this request does not carry and the gateway has not seen. Send rid=<recipe id>, or route reviews.delete to legacy.`,
      );
    }
    const reply = await expectOk(api2, { method: 'DELETE', path: `/recipe/${rid}/review/${id}` }).catch((error: unknown) => {
      // api2 names the recipe; legacy, which needs none, names the review alone.
      throw error instanceof Api2StatusError && error.status === 404 ? new LegacyRefusal(404, REVIEW_REFUSALS.notFound(id), error) : error;
    });
    parseApi2(SystemObject, reply.body, 'DELETE /recipe/{rid}/review/{id}');
    return { status: 204, body: null };
  },
};

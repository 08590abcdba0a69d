/** The review operations (legacy document part 4.1). */
import { reviewsCreateMapping, reviewsDeleteMapping, reviewsGetMapping, reviewsListMapping, reviewsUpdateMapping } from '../../../mappings/reviews.js';
import * as rules from '../../legacy/param-rules.js';
import { ReviewListSchema, ReviewSchema } from '../../legacy/records.js';
import { requireUser, viewerOf } from '../../dataset/action.js';
import type { Values } from '../../dataset/action.js';
import type { ReviewInput } from '../../dataset/legacy-store.js';
import { entry, param } from '../entry.js';
import type { ParamSpec } from '../entry.js';

const reviewFields: readonly ParamSpec[] = [
  param('rid', 'input', true, rules.positiveId),
  param('rating', 'input', true, rules.rating),
  param('makeagain', 'input', true, rules.makeAgain),
  param('message', 'input', true, rules.text(4000)),
  param('totaltime', 'input', false, rules.minutes),
  param('activetime', 'input', false, rules.minutes),
];

/** The sandbox's review input from the validated fields. */
function reviewInput(v: Values): ReviewInput {
  const makeAgain = v.text('makeagain');
  if (makeAgain !== 'yes' && makeAgain !== 'no' && makeAgain !== 'notmake') throw new Error('validated makeagain is invalid');
  return {
    recipeId: v.number('rid'),
    rating: v.number('rating'),
    makeAgain,
    comment: v.text('message'),
    totalMinutes: v.optionalNumber('totaltime'),
    activeMinutes: v.optionalNumber('activetime'),
  };
}

export const REVIEW_OPERATIONS = [
  entry({
    id: 'reviews.create',
    resource: 'reviews',
    summary: 'Create a review for an existing recipe',
    documentedScheme: 'https',
    forms: [{ method: 'POST', template: '/reviews', kind: 'canonical' }],
    params: reviewFields,
    answer: { status: 200, xmlRoot: 'Review', record: ReviewSchema },
    auth: 'user',
    safe: false,
    // StarRating and ReviewCount show on every search page.
    drops: 'all-pages',
    api2: { mapping: reviewsCreateMapping },
    sandbox: {
      act: (s, v, u) => s.createReview(requireUser(u).userId, reviewInput(v)),
      example: { method: 'POST', target: '/reviews', body: { rid: 7, rating: 4, makeagain: 'yes', message: 'Very good' } },
    },
  }),
  entry({
    id: 'reviews.get',
    resource: 'reviews',
    summary: 'Read one review',
    documentedScheme: 'https',
    forms: [{ method: 'GET', template: '/review/{id}', kind: 'canonical' }],
    params: [param('id', 'path', true, rules.positiveId)],
    // DECISION: "most review requests need the user" (part 1): reads do not, writes do.
    answer: { status: 200, xmlRoot: 'Review', record: ReviewSchema, cacheControl: 'revalidate' },
    auth: 'key',
    safe: true,
    api2: { mapping: reviewsGetMapping },
    sandbox: {
      act: (s, v) => s.getReview(v.number('id')),
      example: { method: 'GET', target: '/review/82' },
    },
  }),
  entry({
    id: 'reviews.list',
    resource: 'reviews',
    summary: 'Read all reviews of a recipe',
    documentedScheme: 'https',
    forms: [{ method: 'GET', template: '/reviews', kind: 'canonical' }],
    params: [param('rid', 'query', true, rules.positiveId)],
    answer: { status: 200, xmlRoot: 'ArrayOfReview', xmlItem: 'Review', record: ReviewListSchema, cacheControl: 'revalidate' },
    auth: 'key',
    safe: true,
    api2: { mapping: reviewsListMapping },
    sandbox: {
      act: (s, v, u) => s.listReviews(v.number('rid'), viewerOf(u)),
      example: { method: 'GET', target: '/reviews?rid=27' },
    },
  }),
  entry({
    id: 'reviews.update',
    resource: 'reviews',
    summary: 'Update a review',
    documentedScheme: 'https',
    forms: [{ method: 'PUT', template: '/review/{id}', kind: 'canonical' }],
    params: [param('id', 'path', true, rules.positiveId), ...reviewFields],
    answer: { status: 200, xmlRoot: 'Review', record: ReviewSchema },
    auth: 'user',
    safe: false,
    // StarRating and ReviewCount show on every search page.
    drops: 'all-pages',
    api2: { mapping: reviewsUpdateMapping },
    sandbox: {
      act: (s, v, u) => s.updateReview(requireUser(u).userId, v.number('id'), reviewInput(v)),
      example: { method: 'PUT', target: '/review/82', body: { rid: 27, rating: 3, makeagain: 'no', message: 'Fine' } },
    },
  }),
  entry({
    id: 'reviews.delete',
    resource: 'reviews',
    summary: 'Delete a review',
    documentedScheme: 'https',
    forms: [{ method: 'DELETE', template: '/review/{id}', kind: 'canonical' }],
    // rid is not in the legacy document: an optional hint the api2 mapping can use (mappings/reviews.ts).
    params: [param('id', 'path', true, rules.positiveId), param('rid', 'input', false, rules.positiveId)],
    answer: { status: 204 },
    auth: 'user',
    safe: false,
    // StarRating and ReviewCount show on every search page.
    drops: 'all-pages',
    api2: { mapping: reviewsDeleteMapping },
    sandbox: {
      act: (s, v, u) => s.deleteReview(requireUser(u).userId, v.number('id')),
      example: { method: 'DELETE', target: '/review/82?rid=27' },
    },
  }),
] as const;

/** The review operations (legacy document part 4.1). */
import { reviewsCreateMapping, reviewsDeleteMapping, reviewsGetMapping, reviewsListMapping, reviewsUpdateMapping } from '../../../mappings/reviews.js';
import * as rules from '../../legacy/param-rules.js';
import { ReviewListSchema, ReviewSchema } from '../../legacy/records.js';
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
  }),
] as const;

/**
 * What the sandbox legacy backend does for each catalogued operation: `act`, the call on the
 * legacy store that answers it, and `example`, a request it answers with the operation's success
 * on a fresh dataset (sent with the free api key and, unless the operation needs no user, as
 * alice: the tests and the soak drive every operation through it). The table is complete by its
 * type: an operation the catalogue adds is a type error here until it has its row.
 */
import type { Method, OperationId } from '../catalogue/operations.js';
import type { SandboxAction } from './legacy-values.js';
import { done, groceryInput, requireUser, reviewInput, searchQuery, viewerOf } from './legacy-values.js';

export interface SandboxExample {
  readonly method: Method;
  /** Path and query, without api_key. */
  readonly target: string;
  /** Sent as a JSON body. */
  readonly body?: Readonly<Record<string, string | number>>;
}

export interface SandboxBehaviour {
  readonly act: SandboxAction;
  readonly example: SandboxExample;
}

export const SANDBOX_BEHAVIOUR: { readonly [Id in OperationId]: SandboxBehaviour } = {
  'reviews.create': {
    act: (s, v, u) => s.createReview(requireUser(u).userId, reviewInput(v)),
    example: { method: 'POST', target: '/reviews', body: { rid: 7, rating: 4, makeagain: 'yes', message: 'Very good' } },
  },
  'reviews.get': {
    act: (s, v) => s.getReview(v.number('id')),
    example: { method: 'GET', target: '/review/82' },
  },
  'reviews.list': {
    act: (s, v, u) => s.listReviews(v.number('rid'), viewerOf(u)),
    example: { method: 'GET', target: '/reviews?rid=27' },
  },
  'reviews.update': {
    act: (s, v, u) => s.updateReview(requireUser(u).userId, v.number('id'), reviewInput(v)),
    example: { method: 'PUT', target: '/review/82', body: { rid: 27, rating: 3, makeagain: 'no', message: 'Fine' } },
  },
  'reviews.delete': {
    act: (s, v, u) => s.deleteReview(requireUser(u).userId, v.number('id')),
    example: { method: 'DELETE', target: '/review/82?rid=27' },
  },
  'grocery.create': {
    act: (s, v, u) => done(s.createGrocery(requireUser(u).userId, groceryInput(v))),
    example: { method: 'POST', target: '/grocerylist', body: { quantity: '2 cups', name: 'flour' } },
  },
  'grocery.list': {
    act: (s, _v, u) => done(s.listGrocery(requireUser(u).userId)),
    example: { method: 'GET', target: '/grocerylist' },
  },
  'grocery.update': {
    act: (s, v, u) => s.updateGrocery(requireUser(u).userId, v.text('id'), groceryInput(v)),
    example: { method: 'PUT', target: '/grocerylist/308E515A-C877-48DF-882C-000000000001', body: { quantity: '3 cups', name: 'rye flour' } },
  },
  'grocery.delete': {
    act: (s, v, u) => s.deleteGrocery(requireUser(u).userId, v.text('id')),
    example: { method: 'DELETE', target: '/grocerylist/308E515A-C877-48DF-882C-000000000001' },
  },
  'favorites.create': {
    act: (s, v, u) => s.addToList('favorites', requireUser(u).userId, v.number('rid')),
    example: { method: 'POST', target: '/favorites', body: { rid: 7 } },
  },
  'favorites.list': {
    act: (s, _v, u) => done(s.readList('favorites', requireUser(u).userId)),
    example: { method: 'GET', target: '/favorites' },
  },
  'favorites.delete': {
    act: (s, v, u) => s.removeFromList('favorites', requireUser(u).userId, v.number('rid')),
    example: { method: 'DELETE', target: '/favorites?rid=1262' },
  },
  'trysoons.create': {
    act: (s, v, u) => s.addToList('trysoons', requireUser(u).userId, v.number('rid')),
    example: { method: 'POST', target: '/trysoons', body: { rid: 7 } },
  },
  'trysoons.list': {
    act: (s, _v, u) => done(s.readList('trysoons', requireUser(u).userId)),
    example: { method: 'GET', target: '/trysoons' },
  },
  'trysoons.delete': {
    act: (s, v, u) => s.removeFromList('trysoons', requireUser(u).userId, v.number('rid')),
    example: { method: 'DELETE', target: '/trysoons?rid=921' },
  },
  'recipes.search': {
    act: (s, v, u) => done(s.search(searchQuery(v), viewerOf(u))),
    example: { method: 'GET', target: '/recipes?title_kw=soup&rpp=5' },
  },
};

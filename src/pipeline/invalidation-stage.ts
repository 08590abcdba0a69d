/**
 * The invalidation stage: wraps an answerer; a successful write of an operation whose catalogue
 * entry says it `drops` pages is answered once every replica will see the drop (afterWrite bounds
 * the wait and never rejects). Anything else passes through as it is.
 */
import type { SearchCache } from '../cache/search-cache.js';
import { whenReady } from '../hot-path.js';
import type { Answerer } from './answerer.js';

export function withInvalidation(cache: SearchCache, inner: Answerer): Answerer {
  return (request, facts) => {
    const { operation } = request.match;
    if (!operation.drops) return inner(request, facts);
    return whenReady(inner(request, facts), (outcome) => (outcome.answer.status < 300 ? cache.afterWrite(operation, request.authorization).then(() => outcome) : outcome));
  };
}

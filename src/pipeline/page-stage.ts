/**
 * The pages stage: wraps an answerer, and answers cached operations (`cache: 'pages'`, GET)
 * through the page cache; `X-Cache` tells the client what happened. A HIT or a STALE page is
 * answered without a promise. Anything else goes to the wrapped answerer as it is.
 *
 * The fill is shared by every request waiting on the key, so it is rendered from the canonical
 * request alone (src/request/forward-request.ts, `shared`): no conditional or range header, nothing
 * the key does not hold. It is not cancelled when the client that started it leaves: others wait
 * on it. A client's `If-None-Match` is answered 304 from the stored page's ETag (stored-answer.ts).
 */
import type { SearchCache } from '../cache/search-cache.js';
import type { Served } from '../cache/types.js';
import { routeFreshness } from '../config/schema.js';
import { whenReady } from '../hot-path.js';
import type { Answerer, ReadFacts } from './answerer.js';
import { PageFill } from './page-fill.js';
import type { Outcome, PipelineParts } from './parts.js';
import { fromStored } from './stored-answer.js';

export function withPages(parts: PipelineParts, cache: SearchCache, inner: Answerer): Answerer {
  return (request, facts) => {
    if (request.match.operation.cache !== 'pages' || request.method !== 'GET') return inner(request, facts);
    const headers = facts.clientHeaders;
    // Rendered by the side on a MISS only (the fill); the key is made of the request's facts.
    const source = new PageFill(inner, request, facts);
    const { pageEpoch } = parts.route(request.match.operation.id);
    const { side } = facts;
    const served = cache.serve(
      {
        canonical: request,
        // api2's pages of a rolled-out route are of its page epoch: none is served after a move off api2.
        side: side === 'api2' && pageEpoch !== null ? `api2@${pageEpoch}` : side,
        cacheControl: headers['cache-control'],
        policy: routeFreshness(parts.config, request.match.operation.id),
        defer: facts.defer,
      },
      source,
    );
    return whenReady(served, (done) => outcomeOf(done, source, facts));
  };
}

function outcomeOf({ answer: stored, outcome: cache }: Served, source: PageFill, facts: ReadFacts): Outcome {
  const { clientHeaders: headers, side } = facts;
  const answer = fromStored(stored, cache, { ifNoneMatch: headers['if-none-match'], ifModifiedSince: headers['if-modified-since'] });
  const { filled } = source;
  if (filled === undefined) return { answer, side, cache };
  return { answer, side: filled.side, upstreamMs: filled.upstreamMs, error: filled.error, fallback: filled.fallback, cache };
}

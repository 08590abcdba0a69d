/**
 * Cached operations (`cache: 'pages'` in the catalogue) through the page cache; `X-Cache` tells
 * the client what happened. A HIT or a STALE page is answered without a promise.
 *
 * The fill is shared by every request waiting on the key, so it is rendered from the canonical
 * request alone (src/request/render-legacy.ts, `shared`): no conditional or range header, nothing
 * the key does not hold. It is not cancelled when the client that started it leaves: others wait
 * on it. A client's `If-None-Match` is answered 304 from the stored page's ETag (stored-answer.ts).
 */
import type { SearchCache } from '../cache/search-cache.js';
import type { Served, StoredAnswer } from '../cache/types.js';
import { routeFreshness } from '../config/schema.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import { renderLegacyRequest } from '../request/render-legacy.js';
import { answerFromSide } from './choose-side.js';
import type { Attempt, Outcome, PipelineParts, Side } from './parts.js';
import { fromStored, toStored } from './stored-answer.js';

export function answerFromPages(
  parts: PipelineParts,
  cache: SearchCache,
  request: CanonicalRequest,
  side: Side,
  headers: Readonly<Record<string, string>>,
  /** Keeps a stale page's background refresh alive (RuntimeBindings.defer: edge waitUntil). */
  defer: (work: Promise<unknown>) => void,
): Outcome | Promise<Outcome> {
  const fill = renderLegacyRequest(request, { clientHeaders: headers, rawBody: null, shared: true });
  const legacy = { clientHeaders: headers, rawBody: null, shared: true, signal: undefined, forward: fill } as const;
  // The upstream attempt this request made itself, when it filled the page (a waiter made none).
  let filled: Attempt | undefined;
  const { pageEpoch } = parts.route(request.match.operation.id);
  const served = cache.serve(
    {
      fill,
      // api2's pages of a rolled-out route are of its page epoch: none is served after a move off api2.
      side: side === 'api2' && pageEpoch !== null ? `api2@${pageEpoch}` : side,
      apiKey: request.apiKey,
      authorization: request.authorization,
      paidParams: request.paidParams,
      cacheControl: headers['cache-control'],
      policy: routeFreshness(parts.config, request.match.operation.id),
      defer,
    },
    async () => {
      filled = await answerFromSide(parts, request, side, legacy);
      return storedOf(filled);
    },
    async () => storedOf(await answerFromSide(parts, request, side, legacy)),
  );
  const outcome = ({ answer: stored, outcome: cacheOutcome }: Served): Outcome => {
    const answer = fromStored(stored, cacheOutcome, { ifNoneMatch: headers['if-none-match'], ifModifiedSince: headers['if-modified-since'] });
    if (filled === undefined) return { answer, side, cache: cacheOutcome };
    return { answer, side: filled.side, upstreamMs: filled.upstreamMs, error: filled.error, fallback: filled.fallback, cache: cacheOutcome };
  };
  return served instanceof Promise ? served.then(outcome) : outcome(served);
}

/** The attempt as the cache takes it: a fallback is marked, so it is never stored as the api2 page. */
function storedOf(attempt: Attempt): StoredAnswer {
  const stored = toStored(attempt.answer);
  return attempt.fallback === true ? { ...stored, fallback: true } : stored;
}

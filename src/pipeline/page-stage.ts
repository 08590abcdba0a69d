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
import type { Served } from '../cache/page-cache.js';
import { routeFreshness } from '../config/schema.js';
import type { RequestRecord } from '../gateway/request-record.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import { renderLegacyRequest } from '../request/render-legacy.js';
import { answerFromSide } from './choose-side.js';
import type { Attempt, PipelineParts, Side } from './parts.js';
import { fromStored, toStored } from './stored-answer.js';
import type { Answer } from '../http/answer.js';

export function answerFromPages(
  parts: PipelineParts,
  cache: SearchCache,
  request: CanonicalRequest,
  side: Side,
  client: {
    readonly headers: Readonly<Record<string, string>>;
    readonly record: RequestRecord;
    /** Keeps a stale page's background refresh alive (RuntimeBindings.defer: edge waitUntil). */
    readonly defer?: (work: Promise<unknown>) => void;
  },
  learn: (attempt: Attempt) => void,
): Answer | Promise<Answer> {
  const { headers, record } = client;
  const legacy = { clientHeaders: headers, rawBody: null, shared: true, signal: undefined } as const;
  const fill = renderLegacyRequest(request, legacy);
  const served = cache.serve(
    {
      fill,
      side,
      apiKey: request.apiKey,
      authorization: request.authorization,
      paidParams: request.paidParams,
      cacheControl: headers['cache-control'],
      policy: routeFreshness(parts.config, request.match.operation.id),
      ...(client.defer ? { defer: client.defer } : {}),
    },
    async () => {
      const attempt = await answerFromSide(parts, request, side, { ...legacy, forward: fill });
      learn(attempt);
      return toStored(attempt.answer);
    },
    async () => toStored((await answerFromSide(parts, request, side, { ...legacy, forward: fill })).answer),
  );
  const answer = ({ answer: stored, outcome }: Served): Answer => {
    record.cache = outcome;
    record.mode ??= side;
    return fromStored(stored, outcome, { ifNoneMatch: headers['if-none-match'], ifModifiedSince: headers['if-modified-since'] });
  };
  return served instanceof Promise ? served.then(answer) : answer(served);
}

/**
 * The stages after the guards, over one arrival:
 *
 *   route         the catalogue's operation (matched on arrival), or uncatalogued (passed
 *                 through unchanged, or refused with 404 by config)
 *   read body     once, within the configured limit (read-body.ts)
 *   canonicalise  the canonical request (src/request/): checked as the legacy backend would,
 *                 refused with a legacy error naming each field and rule
 *   answer        from the side its route chooses (choose-side.ts), through the page cache for
 *                 cached operations (page-stage.ts), compared in shadow mode (shadow-stage.ts)
 *
 * Each stage returns an outcome (the answer and what the record learns from it); the request
 * context writes the record from the arrival and that outcome.
 */
import type { Context } from 'hono';
import type { Arrival } from '../gateway/arrival.js';
import { answer } from '../http/answer.js';
import { trailOf } from '../request/canonical-request.js';
import { canonicalRequest } from '../request/canonical-request.js';
import { answerFromSide, chooseSide } from './choose-side.js';
import { callLegacyUncatalogued } from './legacy-side.js';
import { answerFromPages } from './page-stage.js';
import { refused } from './parts.js';
import type { Outcome, PipelineParts } from './parts.js';
import { readRequestBody } from './read-body.js';
import type { BodyRead } from './read-body.js';
import { offerShadow } from './shadow-stage.js';

/**
 * The body could not be read: nothing was sent upstream. The client went away (nobody will read
 * an answer; not a gateway failure), or the runtime cut the request and answered it itself (Node's
 * 408 for a body too slow): then that answer is the outcome, as sent.
 */
function bodyUnread(parts: PipelineParts, c: Context): Outcome {
  const told = parts.runtime.answeredItself?.(c);
  if (!told) return { answer: answer(499, {}), error: 'client-gone' };
  return { answer: { status: told.status, headers: {}, body: null, bytes: told.bytesOut, sharedHeaders: false }, error: told.code };
}

export function dispatch(parts: PipelineParts): (c: Context, arrival: Arrival) => Outcome | Promise<Outcome> {
  const { config } = parts;
  return (c, arrival) => {
    if (!arrival.match && config.uncatalogued === 'reject') {
      return refused(404, 'uncatalogued', `No legacy operation answers ${arrival.method} on this path.`, arrival.json);
    }
    const read = readRequestBody(c, arrival, config.limits.maxRequestBodyBytes);
    if (!(read instanceof Promise)) return answerRead(parts, c, arrival, read);
    return read.then((body) => answerRead(parts, c, arrival, body), () => bodyUnread(parts, c));
  };
}


/** A routed (or uncatalogued) request whose body is read: made canonical, then answered. */
function answerRead(parts: PipelineParts, c: Context, arrival: Arrival, read: BodyRead): Outcome | Promise<Outcome> {
  const { config, runtime, searchCache, shadow } = parts;
  const { headers, match, json, client } = arrival;
  if (!read.ok) return refused(413, 'body-too-large', `The request body is larger than ${read.limit} bytes.`, json);
  if (!match) {
    const raw = { method: arrival.method, path: arrival.path, query: arrival.query, headers, body: read.body, client, trail: trailOf(arrival) };
    return callLegacyUncatalogued(parts, raw, json, runtime.clientSignal(c));
  }

  const request = canonicalRequest(arrival, match, read.body, config.unknownParameters);
  if (!request.ok) return refused(request.status, request.status === 400 ? 'invalid-request' : 'unauthenticated', request.message, json, request.errors);
  const forced = config.traffic.forceHeader ? headers[config.traffic.forceHeader]?.trim().toLowerCase() : undefined;
  const side = chooseSide(parts, request, forced);
  const { operation } = match;
  if (searchCache && operation.cache === 'pages' && request.method === 'GET') {
    const defer = (work: Promise<unknown>): void => runtime.defer?.(c, work);
    const served = answerFromPages(parts, searchCache, request, side, headers, defer);
    if (!shadow) return served;
    return Promise.resolve(served).then((outcome) => {
      // Only the request that filled the page made an upstream call (and has its time).
      offerShadow(parts, request, arrival.requestId, outcome.answer, side, { fallback: outcome.fallback === true, stored: outcome.upstreamMs === undefined }, defer);
      return outcome;
    });
  }
  const legacy = { clientHeaders: headers, rawBody: read.body, shared: false, signal: runtime.clientSignal(c) };
  return answerFromSide(parts, request, side, legacy).then((attempt) => {
    if (shadow) offerShadow(parts, request, arrival.requestId, attempt.answer, attempt.side, { fallback: attempt.fallback === true, stored: false }, (work) => runtime.defer?.(c, work));
    // Answered once every replica will see the write (afterWrite bounds the wait and never rejects).
    if (searchCache && operation.drops && attempt.answer.status < 300) return searchCache.afterWrite(operation, request.authorization).then(() => attempt);
    return attempt;
  });
}

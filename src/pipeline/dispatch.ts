/**
 * The stages after the guards, over one arrival: route → body → canonical request → answer.
 *
 *   route         the catalogue's operation (matched on arrival), or uncatalogued (passed
 *                 through unchanged, or refused with 404 by config)
 *   read body     once, within the configured limit (read-body.ts)
 *   canonicalise  the canonical request (src/request/): checked as the legacy backend would,
 *                 refused with a legacy error naming each field and rule
 *   answer        one answerer (answerer.ts), composed once per config: the side its route
 *                 chooses (choose-side.ts), wrapped by pages (page-stage.ts), invalidation
 *                 (invalidation-stage.ts) and shadow (shadow-stage.ts); docs/architecture.md
 *
 * Each stage returns an outcome (the answer and what the record learns from it); the request
 * context writes the record from the arrival and that outcome.
 */
import type { Context } from 'hono';
import type { Arrival } from '../gateway/arrival.js';
import { whenReady } from '../hot-path.js';
import type { SyncOrAsync } from '../hot-path.js';
import { answer } from '../http/answer.js';
import { trailOf } from '../request/canonical-request.js';
import { canonicalRequest } from '../request/canonical-request.js';
import type { Answerer } from './answerer.js';
import { chooseSide, sidesAnswerer } from './choose-side.js';
import { withInvalidation } from './invalidation-stage.js';
import { callLegacyUncatalogued } from './legacy-side.js';
import { withPages } from './page-stage.js';
import { refused } from './parts.js';
import type { Outcome, PipelineParts } from './parts.js';
import { readRequestBody } from './read-body.js';
import type { BodyRead } from './read-body.js';
import { withShadow } from './shadow-stage.js';
import { writeWatchOf } from './write-watch.js';

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

/** The side answerer wrapped by the stages the config has: composed once, not per request. */
function composed(parts: PipelineParts): Answerer {
  const { searchCache, shadow } = parts;
  const sides = sidesAnswerer(parts);
  const pages = searchCache ? withInvalidation(searchCache, withPages(parts, searchCache, sides)) : sides;
  // Writes are watched only where comparisons are made (the shadow stage): a comparison a write overlapped is a race.
  return shadow ? withShadow(parts, shadow, pages, sides, writeWatchOf(searchCache, parts.runtime.hmacSha256)) : pages;
}

export function dispatch(parts: PipelineParts): (c: Context, arrival: Arrival) => SyncOrAsync<Outcome> {
  const { config } = parts;
  const answerer = composed(parts);
  return (c, arrival) => {
    if (!arrival.match && config.uncatalogued === 'reject') {
      return refused(404, 'uncatalogued', `No legacy operation answers ${arrival.method} on this path.`, arrival.json);
    }
    const read = readRequestBody(c, arrival, config.limits.maxRequestBodyBytes);
    return whenReady(read, (body) => answerRead(parts, answerer, c, arrival, body), () => bodyUnread(parts, c));
  };
}


/** A routed (or uncatalogued) request whose body is read: made canonical, then answered. */
function answerRead(parts: PipelineParts, answerer: Answerer, c: Context, arrival: Arrival, read: BodyRead): SyncOrAsync<Outcome> {
  const { config, runtime } = parts;
  const { headers, match, json, client } = arrival;
  if (!read.ok) return refused(413, 'body-too-large', `The request body is larger than ${read.limit} bytes.`, json);
  if (!match) {
    const raw = { method: arrival.method, path: arrival.path, query: arrival.query, headers, body: read.body, client, trail: trailOf(arrival) };
    return callLegacyUncatalogued(parts, raw, json, runtime.clientSignal(c));
  }
  const request = canonicalRequest(arrival, match, read.body, config.unknownParameters);
  if (!request.ok) return refused(request.status, request.status === 400 ? 'invalid-request' : 'unauthenticated', request.message, json, request.errors);
  const forced = config.traffic.forceHeader ? headers[config.traffic.forceHeader]?.trim().toLowerCase() : undefined;
  return answerer(request, {
    side: chooseSide(parts, request, forced),
    clientHeaders: headers,
    rawBody: read.body,
    shared: false,
    signal: () => runtime.clientSignal(c),
    requestId: arrival.requestId,
    defer: (work) => runtime.defer?.(c, work),
  });
}

/**
 * The side that answers, one answerer (answerer.ts) built once per config: which side answers a
 * canonical request, by its route's mode:
 *
 *   legacy   pass-through to the legacy backend
 *   api2     the operation's mapping, calling api2, answering in the legacy shape
 *   canary   api2 for `canaryPercent` of clients (sticky per api key and user), legacy for the rest;
 *            a rollout plan's chosen clients always api2, its held ones always legacy
 *   shadow   legacy answers (the shadow stage compares api2 in the background)
 *
 * The mode in force is the config's, or the step of the route's rollout (parts.route:
 * src/migration/rollout/route-in-force.ts), under which fallback is always on.
 *
 * A safe operation whose api2 answer failed (5xx: timeout, unreachable, schema mismatch, open
 * breaker) falls back to legacy when its route says `fallback`. A write is sent to exactly one
 * upstream, once: while the api2 breaker is open, a write on a route with `fallback` (every
 * rolled-out route) goes to legacy, as it was never sent to api2, rather than answering 503.
 */
import type { OperationMapping } from '../../mappings/types.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import { canarySide } from '../migration/rollout/route-in-force.js';
import type { Answerer } from './answerer.js';
import { IN_BACKGROUND, callApi2 } from '../api2/call.js';
import type { Api2Ends, Api2Receiver } from '../api2/call.js';
import { routeTimeoutMs } from '../config/schema.js';
import { callLegacy } from './legacy-side.js';
import type { LegacyCall } from './legacy-side.js';
import type { Attempt, PipelineParts, Side } from './parts.js';

export function chooseSide(parts: PipelineParts, request: CanonicalRequest, forced: string | undefined): Side {
  const side = sideOfMode(parts, request, forced);
  // A write on a route with fallback (a rolled-out one, or configured so) while the api2 breaker is
  // open: to legacy, never sent to api2 (nothing to retry), rather than the breaker's 503.
  if (side === 'api2' && !request.match.operation.safe && parts.route(request.match.operation.id).fallback && parts.api2Open()) return 'legacy';
  return side;
}

function sideOfMode(parts: PipelineParts, request: CanonicalRequest, forced: string | undefined): Side {
  const { id } = request.match.operation;
  if (!parts.upstreams.api2 || !request.mapping) return 'legacy';
  switch (request.routeMode) {
    case 'api2':
      return 'api2';
    case 'canary': {
      if (forced === 'legacy' || forced === 'api2') return forced;
      const route = parts.route(id);
      return canarySide(route, route.cohort ? parts.clientOf(request.apiKey) : undefined, request.apiKey, request.user?.user ?? null);
    }
    default:
      return 'legacy';
  }
}

/**
 * The answerer of the side chosen in the facts, then legacy's answer when a safe operation's api2
 * answer failed (never for a background comparison's call, which asks one side).
 */
export function sidesAnswerer(parts: PipelineParts): Answerer {
  const ends: Api2Ends = { api2: parts.upstreams.api2, mappingContext: parts.mappingContext };
  return (request, facts) => {
    const { mapping } = request;
    const call: LegacyCall = { clientHeaders: facts.clientHeaders, rawBody: facts.rawBody, shared: facts.shared, signal: facts.signal() };
    if (facts.side === 'legacy' || !mapping) return callLegacy(parts, request, call);
    if (facts.background) return callApi2(ends, request, mapping, undefined, IN_BACKGROUND, facts.background.timeoutMs);
    return answerFromApi2(parts, ends, request, mapping, call);
  };
}

async function answerFromApi2(parts: PipelineParts, ends: Api2Ends, request: CanonicalRequest, mapping: OperationMapping, legacy: LegacyCall): Promise<Attempt> {
  const { operation } = request.match;
  const attempt = await callApi2(ends, request, mapping, legacy.signal, receiverOf(parts, request, legacy), routeTimeoutMs(parts.config, operation.id));
  if (attempt.answer.status >= 500 && operation.safe && parts.route(operation.id).fallback) {
    const rescued = await callLegacy(parts, request, legacy);
    return { ...rescued, upstreamMs: rescued.upstreamMs + attempt.upstreamMs, error: `fallback: ${attempt.error ?? attempt.answer.status}`, fallback: true };
  }
  return attempt;
}

/** The receiver of an answer made for `call`: a shared page fill carries no client's conditions; a platform that compresses gets identity. */
function receiverOf(parts: PipelineParts, request: CanonicalRequest, call: LegacyCall): Api2Receiver {
  return {
    ifNoneMatch: call.shared ? undefined : call.clientHeaders['if-none-match'],
    coding: parts.runtime.platformCompresses === true ? 'identity' : request.encoding,
    compression: parts.runtime.compression,
  };
}

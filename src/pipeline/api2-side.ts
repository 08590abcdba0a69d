/**
 * The api2 side: the operation's mapping, calling api2 with the canonical request's values and
 * credentials, answered in the legacy shape (api2-answer.ts).
 */
import type { OperationMapping } from '../../mappings/types.js';
import { HEADER_SAFE, api2UserAgent, openApi2Exchange } from '../api2/port.js';
import { routeTimeoutMs } from '../config/schema.js';
import { gatewayError } from '../http/gateway-error.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import type { ContentCoding } from '../legacy/answer-terms.js';
import type { AbortSignalLike } from '../upstream/types.js';
import { answerThroughApi2 } from './api2-answer.js';
import type { LegacyCall } from './legacy-side.js';
import type { Attempt, PipelineParts } from './parts.js';

/** Who takes the answer: the client's If-None-Match (none for a shared page fill) and the coding it accepts. */
export interface Api2Receiver {
  readonly ifNoneMatch: string | undefined;
  readonly coding: ContentCoding;
}

/** A background call (the shadow comparison): no conditions, no compression. */
export const IN_BACKGROUND: Api2Receiver = { ifNoneMatch: undefined, coding: 'identity' };

/** The receiver of an answer made for `call`: a shared page fill carries no client's conditions; a platform that compresses gets identity. */
export function receiverOf(parts: PipelineParts, request: CanonicalRequest, call: LegacyCall): Api2Receiver {
  return {
    ifNoneMatch: call.shared ? undefined : call.clientHeaders['if-none-match'],
    coding: parts.runtime.platformCompresses === true ? 'identity' : request.encoding,
  };
}

export async function callApi2(
  parts: PipelineParts,
  request: CanonicalRequest,
  mapping: OperationMapping,
  signal: AbortSignalLike | undefined,
  receiver: Api2Receiver,
  timeoutMs = routeTimeoutMs(parts.config, request.match.operation.id),
): Promise<Attempt> {
  const api2 = parts.upstreams.api2;
  if (!api2) throw new Error('api2 route without an api2 upstream (the config should have refused it)');
  // The api key goes into a header: one that cannot be a header value (CR, LF, NUL, beyond
  // Latin-1) is no key api2 could know. Refused here, it never counts against api2's breaker.
  if (!HEADER_SAFE.test(request.apiKey)) {
    return { answer: gatewayError(403, 'unauthenticated', 'Authentication failed: unknown api_key.', request.json), side: 'api2', upstreamMs: 0, error: 'unauthenticated' };
  }
  const exchange = openApi2Exchange(
    api2,
    { apiKey: request.apiKey, authorization: request.authorization },
    timeoutMs,
    signal,
    { 'x-forwarded-for': request.forwarded.clientChain, 'user-agent': api2UserAgent(request.trail.userAgent) },
    request.trail,
  );
  const terms = { json: request.json, withUser: request.user !== null, delivery: { method: request.method, ifNoneMatch: receiver.ifNoneMatch, coding: receiver.coding } };
  const outcome = await answerThroughApi2(request.match.operation, mapping, request.values, exchange, parts.mappingContext, terms);
  return { answer: outcome.answer, side: 'api2', upstreamMs: exchange.upstreamMs(), error: outcome.error };
}

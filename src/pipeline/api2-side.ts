/**
 * The api2 side: the operation's mapping, calling api2 with the canonical request's values and
 * credentials, answered in the legacy shape (api2-answer.ts).
 */
import type { OperationMapping } from '../../mappings/types.js';
import { HEADER_SAFE, api2UserAgent, openApi2Exchange } from '../api2/port.js';
import { routeTimeoutMs } from '../config/schema.js';
import { gatewayError } from '../http/gateway-error.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import type { AbortSignalLike } from '../upstream/types.js';
import { answerThroughApi2 } from './api2-answer.js';
import type { Attempt, PipelineParts } from './parts.js';

export async function callApi2(
  parts: PipelineParts,
  request: CanonicalRequest,
  mapping: OperationMapping,
  signal: AbortSignalLike | undefined,
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
  const outcome = await answerThroughApi2(request.match.operation, mapping, request.values, exchange, parts.mappingContext, request.json);
  return { answer: outcome.answer, side: 'api2', upstreamMs: exchange.upstreamMs(), error: outcome.error };
}

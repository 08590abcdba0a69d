/**
 * The api2 side: the operation's mapping, calling api2 with the canonical request's values and
 * credentials, answered in the legacy shape (legacy-answer.ts). The pipeline's side answerer
 * (src/pipeline/choose-side.ts) calls it.
 */
import type { MappingContext, OperationMapping } from '../../mappings/types.js';
import { gatewayError } from '../http/gateway-error.js';
import type { Answer } from '../http/answer.js';
import type { CanonicalRequest } from '../request/canonical-request.js';
import type { ContentCoding } from '../legacy/answer-terms.js';
import type { AbortSignalLike, UpstreamClient } from '../upstream/types.js';
import { answerThroughApi2 } from './legacy-answer.js';
import { HEADER_SAFE, api2UserAgent, openApi2Exchange } from './port.js';
import { LEGACY_REFUSALS } from '../legacy/refusal-words.js';
import type { Compression } from '../http/compression.js';

/** Who takes the answer: the client's If-None-Match (none for a shared page fill) and the coding it accepts. */
export interface Api2Receiver {
  readonly ifNoneMatch: string | undefined;
  readonly coding: ContentCoding;
  readonly compression?: Compression | undefined;
}

/** A background call (the shadow comparison): no conditions, no compression. */
export const IN_BACKGROUND: Api2Receiver = { ifNoneMatch: undefined, coding: 'identity' };

/** What api2 answered, in the legacy shape, as the pipeline's attempt takes it. */
export interface Api2Attempt {
  readonly answer: Answer;
  readonly side: 'api2';
  readonly upstreamMs: number;
  readonly error: string | undefined;
}

/** Where the call goes and what the mapping shares across requests. */
export interface Api2Ends {
  readonly api2: UpstreamClient | undefined;
  readonly mappingContext: MappingContext;
}

export async function callApi2(
  ends: Api2Ends,
  request: CanonicalRequest,
  mapping: OperationMapping,
  signal: AbortSignalLike | undefined,
  receiver: Api2Receiver,
  timeoutMs: number,
): Promise<Api2Attempt> {
  const { api2 } = ends;
  if (!api2) throw new Error('api2 route without an api2 upstream (the config should have refused it)');
  // The api key goes into a header: one that cannot be a header value (CR, LF, NUL, beyond
  // Latin-1) is no key api2 could know. Refused here, it never counts against api2's breaker.
  if (!HEADER_SAFE.test(request.apiKey)) {
    return { answer: gatewayError(403, 'unauthenticated', LEGACY_REFUSALS.unknownKey, request.json), side: 'api2', upstreamMs: 0, error: 'unauthenticated' };
  }
  const exchange = openApi2Exchange(
    api2,
    { apiKey: request.apiKey, authorization: request.authorization },
    timeoutMs,
    signal,
    { 'x-forwarded-for': request.forwarded.clientChain, 'user-agent': api2UserAgent(request.trail.userAgent) },
    request.trail,
  );
  const terms = { json: request.json, withUser: request.user !== null, delivery: { method: request.method, ifNoneMatch: receiver.ifNoneMatch, coding: receiver.coding, compression: receiver.compression } };
  const outcome = await answerThroughApi2(request.match.operation, mapping, request.values, exchange, ends.mappingContext, terms);
  return { answer: outcome.answer, side: 'api2', upstreamMs: exchange.upstreamMs(), error: outcome.error };
}

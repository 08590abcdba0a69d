/**
 * Answering a checked legacy request through its api2 mapping, in exactly the legacy shape:
 * the mapping's legacy record rendered as JSON or XML (src/legacy/answer-body.ts) with the legacy
 * backend's HTTP details (Cache-Control per operation, ETag and 304, gzip, Vary:
 * src/legacy/answer-policy.ts, the policy the sandbox legacy backend answers by), and every failure
 * turned into a legacy-style error:
 *   api2 400/403/404/500          → the same legacy status, with api2's message in legacy's words
 *                                    (legacy-words.ts); a 4xx as legacy answers it, without
 *                                    X-Gateway-Error
 *   api2 401 → 403; other 4xx → 400; other 5xx → 502
 *   api2 answer off its schema    → 502, reason names the call and the failing path
 *   api2 404 the legacy backend
 *   would refuse otherwise        → the legacy status and message (e.g. an update's wrong rid: 400)
 *   request not mappable          → the refusal's status (e.g. 409), saying why
 *   api2 unreachable / timed out  → 502 / 504 (as for the legacy backend)
 */
import type { Operation } from '../catalogue/operations.js';
import { Api2ShapeError, Api2StatusError, LegacyRefusal, MappingRefusal } from '../../mappings/errors.js';
import type { MappingContext, OperationMapping } from '../../mappings/types.js';
import { gatewayError, legacyRefusal } from '../http/gateway-error.js';
import { legacyWordsOf } from './legacy-words.js';
import { cacheControlOf, deliver } from '../legacy/answer-policy.js';
import type { Delivery } from '../legacy/answer-policy.js';
import { renderLegacyBytes } from '../legacy/answer-body.js';
import { upstreamFailure } from '../upstream/pass-through.js';
import { answer } from '../http/answer.js';
import type { Answer } from '../http/answer.js';
import { UpstreamError } from '../upstream/types.js';
import type { Api2Exchange } from './port.js';

export interface Api2Outcome {
  readonly answer: Answer;
  /** A short reason for the request record when the answer is an error. */
  readonly error?: string;
}

function legacyStatusOf(api2Status: number): number {
  if (api2Status === 400 || api2Status === 403 || api2Status === 404 || api2Status === 500) return api2Status;
  if (api2Status === 401) return 403;
  if (api2Status >= 400 && api2Status < 500) return 400;
  return 502;
}

/** What of the client's request the legacy answer depends on. */
export interface LegacyTerms {
  readonly json: boolean;
  /** The request carried a user (HTTP Basic): a `public` answer is then `no-store`. */
  readonly withUser: boolean;
  readonly delivery: Delivery;
}

export async function answerThroughApi2(
  operation: Operation,
  mapping: OperationMapping,
  values: Readonly<Record<string, unknown>>,
  exchange: Api2Exchange,
  context: MappingContext,
  terms: LegacyTerms,
): Promise<Api2Outcome> {
  const { json } = terms;
  try {
    const mapped = await mapping.run({ operation: operation.id, values }, exchange.port, context);
    const shape = operation.answer;
    const cacheControl = cacheControlOf(shape.cacheControl, terms.withUser);
    // As bytes: the byte count is then known, and the runtime writes them as they are.
    const rendered = mapped.status === 204 || mapped.body === null ? null : renderLegacyBytes(mapped.body, json, shape.xmlRoot ?? 'Result', shape.xmlItem, shape.record);
    const status = rendered === null ? 204 : mapped.status;
    const delivered = await deliver({ status, body: rendered?.body ?? null, contentType: rendered?.contentType, cacheControl }, terms.delivery);
    return { answer: answer(delivered.status, delivered.headers, delivered.body) };
  } catch (error) {
    if (error instanceof Api2StatusError) {
      const status = legacyStatusOf(error.status);
      const message = legacyWordsOf(error.status, error.api2Message) ?? `api2 refused the request (${error.status}).`;
      // A refusal legacy gives too (400, 403, 404) is answered as legacy answers it; a 5xx is the gateway's.
      const answered = status < 500 ? legacyRefusal(status, message, json) : gatewayError(status, 'api2-status', message, json);
      return { answer: answered, error: `api2-status-${error.status}` };
    }
    if (error instanceof Api2ShapeError) {
      return {
        answer: gatewayError(502, 'api2-schema', `Bad gateway: ${error.message} (${operation.id}).`, json),
        error: `api2-schema ${error.call} ${error.path}`,
      };
    }
    if (error instanceof LegacyRefusal) {
      return { answer: legacyRefusal(error.status, error.message, json), error: `api2-status-${error.api2.status} as legacy ${error.status}` };
    }
    if (error instanceof MappingRefusal) {
      // A 404 is legacy's own refusal (in its words: mappings/); a 409 is the gateway's, which legacy never gives: it says so.
      const answered = error.status === 404 ? legacyRefusal(error.status, error.message, json) : gatewayError(error.status, 'not-mappable', error.message, json);
      return { answer: answered, error: 'not-mappable' };
    }
    if (error instanceof UpstreamError) {
      return { answer: upstreamFailure(error, { label: operation.id, write: !operation.safe, json }), error: `upstream-${error.failure}` };
    }
    throw error;
  }
}

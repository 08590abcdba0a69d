/**
 * Transparent pass-through to an upstream: status, headers and body bytes as the upstream sent
 * them (content-encoding included), hop-by-hop headers dropped both ways, no body on HEAD, 204 and
 * 304. Failures become 502/504 in the legacy error shape; nothing is retried here.
 */
import { clientResponseHeaders } from '../http/headers.js';
import { gatewayError } from '../http/gateway-error.js';
import type { GatewayErrorCode } from '../http/gateway-error.js';
import { answer as answerOf, carriesBody } from '../http/answer.js';
import type { Answer } from '../http/answer.js';
import type { UpstreamClient, UpstreamError, UpstreamFailure, UpstreamRequest, UpstreamResponse } from './types.js';
import { UpstreamError as UpstreamErrorClass } from './types.js';

export interface PassThroughContext {
  /** Operation id or `uncatalogued`, for messages. */
  readonly label: string;
  /** Whether the method is a write: its outcome may be unknown after a failure. */
  readonly write: boolean;
  readonly json: boolean;
}

export async function passThrough(
  upstream: UpstreamClient,
  request: UpstreamRequest,
  context: PassThroughContext,
): Promise<Answer> {
  let answer: UpstreamResponse;
  try {
    answer = await upstream.request(request);
  } catch (error) {
    if (error instanceof UpstreamErrorClass) return upstreamFailure(error, context);
    throw error;
  }
  if (answer.status < 200 || answer.status > 599) {
    const invalid = new UpstreamErrorClass('protocol', upstream.name, true, `upstream '${upstream.name}' answered status ${answer.status}`);
    return upstreamFailure(invalid, context);
  }
  return toClientAnswer(answer, request.method);
}

export function toClientAnswer(upstream: UpstreamResponse, method: string): Answer {
  const { single, repeated } = clientResponseHeaders(upstream.headers);
  const noBody = !carriesBody(method, upstream.status);
  const body = noBody || upstream.body.byteLength === 0 ? null : (upstream.body as Uint8Array<ArrayBuffer>);
  // A known length keeps @hono/node-server on its fastest path (it need not count the body).
  if (body && single['content-length'] === undefined && !repeated?.some(([name]) => name === 'content-length')) {
    single['content-length'] = String(body.byteLength);
  }
  return answerOf(upstream.status, single, body, repeated ? { repeated } : {});
}

/** The `X-Gateway-Error` code of each failure's answer (`aborted`: a bare 499, nobody reads it). */
const CODE_OF_FAILURE = {
  timeout: 'upstream-timeout',
  connect: 'upstream-unreachable',
  'too-large': 'upstream-too-large',
  protocol: 'upstream-invalid',
  reset: 'upstream-reset',
  unavailable: 'upstream-unavailable',
} as const satisfies Record<Exclude<UpstreamFailure, 'aborted'>, GatewayErrorCode>;

const FAILURE_OF_CODE: ReadonlyMap<string, UpstreamFailure> = new Map(Object.entries(CODE_OF_FAILURE).map(([failure, code]) => [code, failure as UpstreamFailure]));

/**
 * The failure a pass-through answer stands for, read back from the answer `upstreamFailure` made
 * (its `X-Gateway-Error`, or the 499 of a client gone); undefined: the upstream answered.
 */
export function failureOfAnswer(answer: Pick<Answer, 'status' | 'headers'>): UpstreamFailure | undefined {
  if (answer.status === 499) return 'aborted';
  const code = answer.headers['x-gateway-error'];
  return code === undefined ? undefined : FAILURE_OF_CODE.get(code);
}

export function upstreamFailure(error: UpstreamError, context: PassThroughContext): Answer {
  const unknownOutcome =
    context.write && error.sent ? ' The request may have been applied: its outcome is unknown, check before repeating it.' : '';
  const where = `${context.label} via upstream '${error.upstream}'`;
  switch (error.failure) {
    case 'timeout':
      return gatewayError(504, CODE_OF_FAILURE.timeout, `Gateway timeout: ${error.message} (${where}).${unknownOutcome}`, context.json);
    case 'connect':
      return gatewayError(502, CODE_OF_FAILURE.connect, `Bad gateway: ${error.message} (${where}).`, context.json);
    case 'too-large':
      return gatewayError(502, CODE_OF_FAILURE['too-large'], `Bad gateway: ${error.message} (${where}).${unknownOutcome}`, context.json);
    case 'protocol':
      return gatewayError(502, CODE_OF_FAILURE.protocol, `Bad gateway: ${error.message} (${where}).${unknownOutcome}`, context.json);
    case 'reset':
      return gatewayError(502, CODE_OF_FAILURE.reset, `Bad gateway: ${error.message} (${where}).${unknownOutcome}`, context.json);
    case 'unavailable':
      return gatewayError(503, CODE_OF_FAILURE.unavailable, `Service unavailable: ${error.message} (${where}).`, context.json);
    case 'aborted':
      // The client is gone; nobody reads this answer.
      return answerOf(499, {});
  }
}

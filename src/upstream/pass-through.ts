/**
 * Transparent pass-through to an upstream: status, headers and body bytes as the upstream sent
 * them (content-encoding included), hop-by-hop headers dropped both ways, no body on HEAD, 204 and
 * 304. Failures become 502/504 in the legacy error shape; nothing is retried here.
 */
import { clientResponseHeaders } from '../http/headers.js';
import { gatewayError } from '../http/gateway-error.js';
import { answer as answerOf, carriesBody } from '../http/answer.js';
import type { Answer } from '../http/answer.js';
import type { UpstreamClient, UpstreamError, UpstreamRequest, UpstreamResponse } from './types.js';
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

export function upstreamFailure(error: UpstreamError, context: PassThroughContext): Answer {
  const unknownOutcome =
    context.write && error.sent ? ' The request may have been applied: its outcome is unknown, check before repeating it.' : '';
  const where = `${context.label} via upstream '${error.upstream}'`;
  switch (error.failure) {
    case 'timeout':
      return gatewayError(504, 'upstream-timeout', `Gateway timeout: ${error.message} (${where}).${unknownOutcome}`, context.json);
    case 'connect':
      return gatewayError(502, 'upstream-unreachable', `Bad gateway: ${error.message} (${where}).`, context.json);
    case 'too-large':
      return gatewayError(502, 'upstream-too-large', `Bad gateway: ${error.message} (${where}).${unknownOutcome}`, context.json);
    case 'protocol':
      return gatewayError(502, 'upstream-invalid', `Bad gateway: ${error.message} (${where}).${unknownOutcome}`, context.json);
    case 'reset':
      return gatewayError(502, 'upstream-reset', `Bad gateway: ${error.message} (${where}).${unknownOutcome}`, context.json);
    case 'unavailable':
      return gatewayError(503, 'upstream-unavailable', `Service unavailable: ${error.message} (${where}).`, context.json);
    case 'aborted':
      // The client is gone; nobody reads this answer.
      return answerOf(499, {});
  }
}

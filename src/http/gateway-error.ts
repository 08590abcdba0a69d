/**
 * Answers the gateway makes itself, in the legacy error shape (src/legacy/answer-body.ts), with a
 * short machine-readable reason in `X-Gateway-Error`. Messages never carry a secret: callers pass
 * sentences built from operation ids, upstream names and rules, never from request values.
 */
import type { FieldError } from '../legacy/field-error.js';
import { renderError } from '../legacy/answer-body.js';
import { answer, toResponse } from './answer.js';
import type { Answer } from './answer.js';

export type GatewayErrorCode =
  | 'bad-target'
  | 'misdirected'
  | 'insecure-credentials'
  | 'uncatalogued'
  | 'invalid-request'
  | 'unauthenticated'
  | 'body-too-large'
  | 'method-not-allowed'
  | 'upstream-timeout'
  | 'upstream-unreachable'
  | 'upstream-reset'
  | 'upstream-invalid'
  | 'upstream-too-large'
  | 'upstream-unavailable'
  | 'api2-status'
  | 'api2-schema'
  | 'not-mappable'
  | 'internal';

export function gatewayError(
  status: number,
  code: GatewayErrorCode,
  message: string,
  json: boolean,
  fieldErrors?: readonly FieldError[],
): Answer {
  const rendered = renderError(status, message, json, fieldErrors);
  const headers = { 'content-type': rendered.contentType, 'x-gateway-error': code, 'cache-control': 'no-store', vary: 'Accept' };
  return answer(status, headers, rendered.body);
}

/**
 * A refusal the legacy backend itself gives, answered as it answers it: the legacy error shape and
 * headers, no `X-Gateway-Error` (legacy never sends one; the usage line still has the reason).
 */
export function legacyRefusal(status: number, message: string, json: boolean): Answer {
  const rendered = renderError(status, message, json);
  return answer(status, { 'content-type': rendered.contentType, 'cache-control': 'no-store', vary: 'Accept' }, rendered.body);
}

/** The same, as a Response: for what answers outside the pipeline (the Node listener, Hono's onError, the edge worker). */
export function gatewayErrorResponse(...args: Parameters<typeof gatewayError>): Response {
  return toResponse(gatewayError(...args));
}

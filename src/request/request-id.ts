/**
 * The request id: the client's `X-Request-Id` when it is a plain token (so a caller can follow its
 * own id through the logs), otherwise a fresh UUID. Anything else a client sends there (long
 * values, spaces, control characters) is replaced rather than logged.
 */
import { randomUuid } from '../hot-path.js';

const ACCEPTABLE = /^[A-Za-z0-9._:@+/=-]{1,128}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && ACCEPTABLE.test(header) ? header : randomUuid();
}

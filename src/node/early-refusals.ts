/**
 * Requests the Node listener refuses from what only the raw header list shows, before the core
 * sees them (`TRACE` is refused by the core on every runtime: src/pipeline/method-guard.ts):
 *
 * - More than one `Host` header gets 400 (RFC 9112 §3.2). Node's parser keeps the first and
 *   drops the others from `req.headers`, so only `rawHeaders` can tell.
 * - More than one `Authorization` header gets 400 (below).
 *
 * DECISION: a request with more than one `Authorization` header is refused with 400, as an
 * `api_key` given twice is: Node keeps the first and drops the others, so a request naming two
 * users would be answered for one while a proxy in front may have taken the other.
 */
import type { IncomingMessage } from 'node:http';
import type { GatewayErrorCode } from '../http/gateway-error.js';

/** What the Node listener refuses a request with: status, error code, message. */
export type ListenerRefusal = readonly [status: number, code: GatewayErrorCode, message: string];

export function refuseEarly(req: IncomingMessage): ListenerRefusal | undefined {
  const { host, authorization } = singletonCounts(req.rawHeaders);
  if (host > 1) return [400, 'bad-target', 'The request is refused: it carries more than one Host header.'];
  if (authorization > 1) return [400, 'invalid-request', 'The request is invalid: Authorization must be given once.'];
  return undefined;
}

function singletonCounts(raw: readonly string[]): { host: number; authorization: number } {
  let host = 0;
  let authorization = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') host += 1;
    else if (name.length === 13 && name.toLowerCase() === 'authorization') authorization += 1;
  }
  return { host, authorization };
}

/**
 * Requests the Node listener refuses from what only the raw header list shows, before the core
 * sees them (`TRACE` is refused by the core on every runtime: src/pipeline/method-guard.ts):
 *
 * - More than one `Host` header gets 400 (RFC 9112 §3.2). Node's parser keeps the first and
 *   drops the others from `req.headers`, so only `rawHeaders` can tell.
 */
import type { IncomingMessage } from 'node:http';
import type { GatewayErrorCode } from '../http/gateway-error.js';

/** What the Node listener refuses a request with: status, error code, message. */
export type ListenerRefusal = readonly [status: number, code: GatewayErrorCode, message: string];

export function refuseEarly(req: IncomingMessage): ListenerRefusal | undefined {
  if (hostHeaders(req.rawHeaders) > 1) return [400, 'bad-target', 'The request is refused: it carries more than one Host header.'];
  return undefined;
}

function hostHeaders(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count += 1;
  }
  return count;
}

/**
 * `TRACE` (and the non-standard `TRACK`) get 405 from the gateway itself, on every runtime: the
 * upstream would echo the request back, credentials and all, and no legacy operation uses it.
 * (CONNECT never reaches the core on Node: src/node/node-refusals.ts answers it.)
 */
import { withHeader } from '../http/answer.js';
import type { Guard } from './guard.js';
import { refused } from './parts.js';

/** The methods the gateway serves, for `Allow` on a 405. */
export const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, DELETE';

const ECHOING = new Set(['TRACE', 'TRACK']);

export const methodGuard: Guard = ({ method, json }) => {
  if (!ECHOING.has(method)) return undefined;
  const refusal = refused(405, 'method-not-allowed', `The ${method} method is not allowed: this gateway neither forwards nor echoes requests.`, json);
  return { ...refusal, answer: withHeader(refusal.answer, 'allow', ALLOWED_METHODS) };
};

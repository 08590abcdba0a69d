/**
 * DECISION: HMAC-SHA256 on edge runtimes is @noble/hashes (audited, pure JS, synchronous). WebCrypto's
 * `crypto.subtle.sign` would make a cache HIT and the usage record wait on a promise; why not
 * node:crypto under nodejs_compat: docs/deploy.md, "HMAC". See src/request/hmac.ts.
 */
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import type { HmacSha256 } from '../request/hmac.js';

export const edgeHmacSha256: HmacSha256 = (key) => {
  const keyed = hmac.create(sha256, key);
  // A copy of the keyed state per message: the key's pads are hashed once.
  return (message) => keyed.clone().update(message).digest();
};

/**
 * Keyed hashes of secrets for in-memory lookups (cache keys, known-valid key sets): HMAC-SHA256
 * (the runtime's: src/request/hmac.ts) with a key drawn at start, so a hash neither reveals the
 * secret nor can be checked against a guess from outside this process. Replicas that share a
 * cache tier pass a shared secret key instead, so they agree on the hashes (and a reader of the
 * tier still cannot check a guess).
 */
import { remembered } from '../hot-path.js';
import { keyBytes, toHex } from '../request/hmac.js';
import type { HmacSha256 } from '../request/hmac.js';

export type SecretHasher = (secret: string) => string;

export function createSecretHasher(hmac: HmacSha256, limit = 10_000, sharedKey?: string): SecretHasher {
  const key = sharedKey !== undefined ? keyBytes(`recipe-gateway cache\n${sharedKey}`) : crypto.getRandomValues(new Uint8Array(32));
  const mac = hmac(key);
  return remembered(limit, (secret: string) => toHex(mac(secret), 16));
}

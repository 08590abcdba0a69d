/**
 * Keyed hashes of secrets for in-memory lookups (cache keys, known-valid key sets): HMAC-SHA256
 * with a key drawn at start, so a hash neither reveals the secret nor can be checked against a
 * guess from outside this process. Replicas that share a cache tier pass a shared secret key
 * instead, so they agree on the hashes (and a reader of the tier still cannot check a guess). Memoised (bounded) so a busy client costs one map lookup.
 */
import { hmacSha256, toHex } from '../request/hmac-sha256.js';

export type SecretHasher = (secret: string) => string;

export function createSecretHasher(limit = 10_000, sharedKey?: string): SecretHasher {
  const key = sharedKey !== undefined ? new TextEncoder().encode(`recipe-gateway cache\n${sharedKey}`) : new Uint8Array(32);
  if (sharedKey === undefined) crypto.getRandomValues(key);
  const mac = hmacSha256(key);
  const memo = new Map<string, string>();
  return (secret) => {
    let hash = memo.get(secret);
    if (hash === undefined) {
      hash = toHex(mac(secret), 16);
      if (memo.size >= limit) memo.clear();
      memo.set(secret, hash);
    }
    return hash;
  };
}

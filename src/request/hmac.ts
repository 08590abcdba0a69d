/**
 * HMAC-SHA256, the keyed hash of the usage log's client and user hashes and of the cache keys'
 * secrets. The core never computes it itself: each runtime hands it in with its bindings
 * (RuntimeBindings.hmacSha256: node:crypto on Node, src/request/hmac-node.ts; @noble/hashes on the edge,
 * src/edge/hmac.ts). Why these two: docs/deploy.md, "HMAC".
 */

/** A key fixed once; the hasher it returns is synchronous (the hot path never waits for it). */
export type HmacSha256 = (key: Uint8Array) => (message: string | Uint8Array) => Uint8Array;

const encoder = new TextEncoder();

export function keyBytes(key: string): Uint8Array {
  return encoder.encode(key);
}

/** Lower-case hex of the first `length` bytes. */
export function toHex(bytes: Uint8Array, length = bytes.length): string {
  let hex = '';
  for (let i = 0; i < length; i++) hex += (bytes[i]! < 16 ? '0' : '') + bytes[i]!.toString(16);
  return hex;
}

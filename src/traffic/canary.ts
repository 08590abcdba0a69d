/**
 * The canary split: a pure function of the client (its api key and user name), never of the
 * instance or the moment, so a client lands on the same side on every request and on every
 * gateway instance (docs/deploy.md, scale-out). FNV-1a over `apiKey \n user` gives a bucket 0..9999;
 * buckets below `percent × 100` go to api2.
 */

export function canaryBucket(apiKey: string, user: string | null): number {
  let hash = 0x811c9dc5;
  const text = `${apiKey}\n${user ?? ''}`;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  // Final avalanche (murmur3 fmix32) so that similar keys spread evenly.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35) >>> 0;
  hash ^= hash >>> 16;
  return (hash >>> 0) % 10_000;
}

export function canaryChoosesApi2(percent: number, apiKey: string, user: string | null): boolean {
  return canaryBucket(apiKey, user) < Math.round(percent * 100);
}

/**
 * The Node binding's gzip (zlib, src/node/compression.ts) stands in for the web's
 * CompressionStream in the gateway's own legacy-shaped answers and the sandbox legacy backend's:
 * a client must get the same bytes either way (the ETag and Content-Length follow from them), and a
 * shadow comparison's decoding of an upstream's gzip body stops at its bound on both.
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { webCompression } from '../src/http/compression.js';
import { nodeCompression } from '../src/node/compression.js';

const page = new TextEncoder().encode(
  JSON.stringify({ ResultCount: 14, Results: Array.from({ length: 14 }, (_, i) => ({ RecipeID: i, Title: `Chicken soup ${i}`, Ingredients: ['salt', 'pepper', `stock ${i}`] })) }),
);
const BODIES: ReadonlyArray<readonly [string, Uint8Array<ArrayBuffer>]> = [
  ['empty', new Uint8Array(0)],
  ['1 KiB of one letter', new Uint8Array(1024).fill(97)],
  ['a search page', page],
  ['64 KiB of random bytes', new Uint8Array(randomBytes(64 * 1024))],
];

describe.each([
  ['node', nodeCompression],
  ['web', webCompression],
] as const)('%s compression', (_name, compression) => {
  it.each(BODIES)('gzip of %s: the web stream bytes, decoded back to the body', async (_label, body) => {
    const compressed = await compression.gzip(body);
    expect(Buffer.from(compressed).equals(Buffer.from(await webCompression.gzip(body)))).toBe(true);
    expect(Buffer.from(await compression.gunzip(compressed, body.byteLength)).equals(Buffer.from(body))).toBe(true);
  });

  it('refuses a body that decodes to more than its bound (a 20 MiB bomb of 20 KiB, bound 1 MiB), and one that is not gzip', async () => {
    const bomb = new Uint8Array(gzipSync(new Uint8Array(20 * 1024 * 1024)));
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    await expect(compression.gunzip(bomb, 1024 * 1024)).rejects.toThrow();
    await expect(compression.gunzip(page, 1024 * 1024)).rejects.toThrow();
  });
});

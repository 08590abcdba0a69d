/**
 * The HMAC-SHA256 each runtime hands the core (RuntimeBindings.hmacSha256: node:crypto on Node,
 * @noble/hashes on the edge) gives the RFC 4231 test vectors, and the two agree on the texts the
 * gateway hashes (across block boundaries, multi-byte text, keys longer than a block). workerd
 * itself: test/edge-worker-runs-the-catalogue.test.ts (the same client hash as the Node gateway).
 * No hand-written SHA-256 is left in the product's sources.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { edgeRuntime } from '../src/edge/runtime.js';
import { nodeRuntime } from '../src/node/runtime.js';
import { toHex } from '../src/request/hmac.js';

const bytes = (length: number, value: number) => new Uint8Array(length).fill(value);
const text = (value: string) => new TextEncoder().encode(value);

/** RFC 4231 section 4: key, data, HMAC-SHA-256 (case 5 is truncated to 128 bits). */
const RFC_4231 = [
  { case: 1, key: bytes(20, 0x0b), data: text('Hi There'), mac: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7' },
  { case: 2, key: text('Jefe'), data: text('what do ya want for nothing?'), mac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843' },
  { case: 3, key: bytes(20, 0xaa), data: bytes(50, 0xdd), mac: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe' },
  { case: 4, key: Uint8Array.from({ length: 25 }, (_, i) => i + 1), data: bytes(50, 0xcd), mac: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b' },
  { case: 5, key: bytes(20, 0x0c), data: text('Test With Truncation'), mac: 'a3b6167473100ee06e0c796c2955552b' },
  { case: 6, key: bytes(131, 0xaa), data: text('Test Using Larger Than Block-Size Key - Hash Key First'), mac: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54' },
  {
    case: 7,
    key: bytes(131, 0xaa),
    data: text('This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.'),
    mac: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
  },
];

const BINDINGS = [
  ['Node (node:crypto)', nodeRuntime.hmacSha256],
  ['edge (@noble/hashes)', edgeRuntime.hmacSha256],
] as const;

describe.each(BINDINGS)('HMAC-SHA256 of the %s binding', (_name, hmac) => {
  it.each(RFC_4231)('gives RFC 4231 test case $case', (vector) => {
    expect(toHex(hmac(vector.key)(vector.data), vector.mac.length / 2)).toBe(vector.mac);
  });

  it('hashes several messages with one key alike, each as if alone (no state carried over)', () => {
    const mac = hmac(text('Jefe'));
    expect(toHex(mac('Hi There'))).toBe(toHex(mac('Hi There')));
    expect(toHex(mac('what do ya want for nothing?'))).toBe(RFC_4231[1]!.mac);
  });
});

describe('the two bindings agree', () => {
  const messages = ['', 'abc', 'api_key\nsandbox-free-key', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), 'é€𝄞'.repeat(40), 'q'.repeat(1000)];
  it('on text across block boundaries and multi-byte text, short keys and keys longer than a block', () => {
    for (const key of ['k', 'a-16-char-secret', 'K'.repeat(64), 'L'.repeat(200)].map(text)) {
      const [node, edge] = [nodeRuntime.hmacSha256(key), edgeRuntime.hmacSha256(key)];
      for (const message of messages) expect(toHex(edge(message)), message).toBe(toHex(node(message)));
    }
  });
});

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join(entry.parentPath, entry.name));
}

it('no hand-written SHA-256 in src/ or mappings/ (its initial hash words or round constants)', async () => {
  const found: string[] = [];
  for (const file of [...(await sources('src')), ...(await sources('mappings'))]) {
    if (/0x6a09e667|0x428a2f98/i.test(await readFile(file, 'utf8'))) found.push(file);
  }
  expect(found).toEqual([]);
});

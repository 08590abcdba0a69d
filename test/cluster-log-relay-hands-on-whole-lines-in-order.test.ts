/**
 * The cluster primary's relay of a worker's stdout (src/node/log-relay.ts): the worker's batches
 * end anywhere, even inside a line or a UTF-8 character; the relay hands on whole log lines only,
 * in order and byte for byte, and every other line as text.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { relayLines } from '../src/node/log-relay.js';

function relayOf(chunks: readonly Buffer[]): Promise<{ lines: Buffer; other: string[] }> {
  const stream = new PassThrough();
  const lines: Buffer[] = [];
  const other: string[] = [];
  relayLines(stream, { lines: (bytes) => lines.push(Buffer.from(bytes)), other: (text) => other.push(text) });
  return new Promise((resolve) => {
    stream.on('end', () => setImmediate(() => resolve({ lines: Buffer.concat(lines), other })));
    for (const chunk of chunks) stream.write(chunk);
    stream.end();
  });
}

/** `bytes` cut into pieces of `size` bytes. */
const cut = (bytes: Buffer, size: number): Buffer[] => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

describe('the cluster log relay', () => {
  const log = [
    '{"msg":"request","operation":"recipes.search","user":"é😀 ü"}\n',
    `{"msg":"request","long":"${'x'.repeat(200_000)}"}\n`,
    '{"msg":"request","n":3}\n',
  ];
  const other = '[12:00:00] Scavenge 1.2 (3.4) -> 1.1 (3.4) MB\n';

  it.each([1, 2, 3, 7, 4096, 1 << 20])('hands on whole log lines byte for byte, other lines apart, in chunks of %i bytes', async (size) => {
    const written = Buffer.from(log[0]! + other + log[1]! + log[2]!);
    const relayed = await relayOf(cut(written, size));
    expect(relayed.lines.toString()).toBe(log.join(''));
    expect(relayed.other).toEqual([other]);
  });

  it('ends a last line the worker left without a newline', async () => {
    const relayed = await relayOf([Buffer.from('{"msg":"request","n":1}\n{"msg":"request","n":2}')]);
    expect(relayed.lines.toString()).toBe('{"msg":"request","n":1}\n{"msg":"request","n":2}\n');
  });
});

/**
 * Node-only: streams the lines of a log file (or stdin for `-`), plain or gzipped (detected from
 * the first bytes, not the name), in constant memory. A gzip stream that breaks off is reported
 * as an error after the lines read before it.
 */
import { constants, createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

const MAX_LINE = 1 << 20;

export type LineHandler = (line: string, lineNumber: number) => void;

export interface ReadOutcome {
  readonly lines: number;
  /** Set when the input could not be read to its end (the lines before it were handled). */
  readonly error: string | undefined;
}

/** `afterChunk`, when given, is awaited after the lines of each chunk (about 1 MiB): a consumer's backpressure. */
export async function readLines(input: string, onLine: LineHandler, afterChunk?: () => Promise<void>): Promise<ReadOutcome> {
  const source: Readable = input === '-' ? process.stdin : createReadStream(input, { highWaterMark: 1 << 20 });
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let lineNumber = 0;

  // A line longer than MAX_LINE (no newline in sight: not a log) is handed on cut short, so it is
  // reported as broken, and the rest of it is skipped: memory stays bounded.
  let skipping = false;
  const take = (chunk: string): void => {
    const text = carry === '' ? chunk : carry + chunk;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      if (skipping) skipping = false;
      else {
        lineNumber++;
        const line = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
        if (line.length > 0) onLine(line, lineNumber);
      }
      start = end + 1;
    }
    carry = skipping ? '' : text.slice(start);
    if (carry.length > MAX_LINE) {
      lineNumber++;
      onLine(carry.slice(0, 200), lineNumber);
      carry = '';
      skipping = true;
    }
  };

  let error: string | undefined;
  try {
    for await (const chunk of await decoded(source)) {
      take(decoder.write(chunk as Buffer));
      if (afterChunk) await afterChunk();
    }
  } catch (failure) {
    error = failure instanceof Error ? failure.message : String(failure);
  }
  const rest = skipping ? '' : carry + decoder.end();
  if (rest.length > 0) {
    lineNumber++;
    onLine(rest.endsWith('\r') ? rest.slice(0, -1) : rest, lineNumber);
  }
  return { lines: lineNumber, error };
}

/** The source, gunzipped when it starts with the gzip magic bytes. */
async function decoded(source: Readable): Promise<AsyncIterable<Buffer>> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  if (first.done) return (async function* (): AsyncGenerator<Buffer> {})();
  const head: Buffer = first.value;
  const all = async function* (): AsyncGenerator<Buffer> {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  };
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const gunzip = createGunzip({ chunkSize: 1 << 18 });
    const compressed = Readable.from(all());
    compressed.once('error', (error) => gunzip.destroy(error));
    return compressed.pipe(gunzip);
  }
  return all();
}

/** The first input that cannot be read (`-`, stdin, always can), or undefined when all can. */
export async function firstUnreadable(inputs: readonly string[]): Promise<string | undefined> {
  for (const input of inputs) {
    if (input === '-') continue;
    try {
      await access(input, constants.R_OK);
    } catch {
      return input;
    }
  }
  return undefined;
}

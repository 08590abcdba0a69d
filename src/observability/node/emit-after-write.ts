/**
 * Node-only: for answers that carry no Content-Length (built from a buffered body, a stream), the
 * record is emitted when @hono/node-server ends the answer, with `bytesOut` counted from what it
 * wrote. Emitting inside `end()` (not on 'finish') keeps the record ahead of anything the client
 * can observe; a client that went away before the end gets its record on 'close'. Records that
 * already know their size are emitted at once.
 */
import type { ServerResponse } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import type { RecordEmitter } from '../record-emitter.js';

type Chunk = string | Uint8Array | undefined | null | ((error?: Error | null) => void);

function sizeOf(chunk: Chunk, encoding: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return chunk.byteLength;
  return 0;
}

export const emitAfterWrite: RecordEmitter = (c, record, sink) => {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing as ServerResponse | undefined;
  if (record.bytesOut !== undefined || !outgoing || outgoing.writableEnded) return sink(record);
  let bytes = 0;
  const write = outgoing.write;
  const end = outgoing.end;
  outgoing.write = function (this: ServerResponse, chunk: Chunk, encoding?: unknown, callback?: unknown) {
    bytes += sizeOf(chunk, encoding);
    return write.call(this, chunk as never, encoding as never, callback as never);
  } as ServerResponse['write'];
  let emitted = false;
  const emit = (): void => {
    if (emitted) return;
    emitted = true;
    record.bytesOut = record.method === 'HEAD' ? 0 : bytes;
    sink(record);
  };
  outgoing.end = function (this: ServerResponse, chunk?: Chunk, encoding?: unknown, callback?: unknown) {
    bytes += sizeOf(chunk, encoding);
    const result = end.call(this, chunk as never, encoding as never, callback as never);
    emit();
    return result;
  } as ServerResponse['end'];
  outgoing.once('close', emit);
};

/**
 * Unsolicited `100 Continue` from an upstream, dropped before undici's parser sees it.
 *
 * RFC 9110 §15.2: a client must accept 1xx answers it did not ask for and wait for the final one.
 * undici 7 passes 102/103 on (the handler sees a status below 200 and the final answer after it)
 * but treats `100` as a broken answer and destroys the socket ("bad response"): the gateway would
 * answer 502 for an upstream that did nothing wrong. So each upstream socket undici reads is
 * wrapped here: at the start of every answer, `HTTP/1.x 100 …\r\n…\r\n\r\n` blocks are removed.
 *
 * Where an answer starts: undici writes a request in one synchronous turn (the pool runs one
 * request per connection at a time, and buffered bodies are written with the head), and the
 * answer to it is the first byte read after that. So every write marks "an answer starts next".
 * Nothing else is touched: a status line that is not 100 passes through at once, unchanged.
 */
import type { Socket } from 'node:net';

/** Longest interim block kept while waiting for its end; longer ones are passed on untouched. */
const MAX_INTERIM_BYTES = 8 * 1024;
const STATUS_100 = /^HTTP\/1\.[01] 100(?: |\r\n)/;
const CRLF_CRLF = Buffer.from('\r\n\r\n', 'latin1');

type Peek = { readonly kind: 'more' } | { readonly kind: 'final' } | { readonly kind: 'interim'; readonly length: number };

/** What the bytes at the start of an answer are. */
export function peekAnswerStart(bytes: Buffer): Peek {
  const lineEnd = bytes.indexOf(0x0a);
  if (lineEnd === -1) return bytes.byteLength < 64 && mayBeStatus100(bytes.toString('latin1')) ? { kind: 'more' } : { kind: 'final' };
  if (!STATUS_100.test(bytes.toString('latin1', 0, lineEnd + 1))) return { kind: 'final' };
  const end = bytes.indexOf(CRLF_CRLF);
  if (end === -1) return bytes.byteLength < MAX_INTERIM_BYTES ? { kind: 'more' } : { kind: 'final' };
  return { kind: 'interim', length: end + CRLF_CRLF.byteLength };
}

/** Whether a status line not yet complete may be a `100` one. */
function mayBeStatus100(text: string): boolean {
  return ['HTTP/1.1 100', 'HTTP/1.0 100'].some((model) => (text.length <= model.length ? model.startsWith(text) : text.startsWith(model)));
}

/** Makes `socket.read()` (how undici's HTTP/1.1 parser reads) skip interim `100` answers. */
export function dropInterimContinue<S extends Socket>(socket: S): S {
  const read = socket.read.bind(socket);
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  let atAnswerStart = false;
  let held: Buffer | null = null;

  socket.write = ((...args: unknown[]) => {
    atAnswerStart = true;
    return write(...args);
  }) as S['write'];

  socket.read = ((size?: number) => {
    if (size !== undefined || (!atAnswerStart && held === null)) return read(size);
    for (;;) {
      const chunk = read() as Buffer | null;
      if (chunk === null && held === null) return null;
      const bytes: Buffer = held && chunk ? Buffer.concat([held, chunk]) : (held ?? chunk)!;
      held = null;
      const peek = peekAnswerStart(bytes);
      if (peek.kind === 'more') {
        held = bytes;
        if (chunk === null) return null;
        continue;
      }
      if (peek.kind === 'final') {
        atAnswerStart = false;
        return bytes;
      }
      const rest = bytes.subarray(peek.length);
      if (rest.byteLength > 0) {
        held = rest;
      } else if (chunk === null) {
        return null;
      }
    }
  }) as S['read'];
  return socket;
}

/**
 * Closing a client connection lingeringly, as nginx does (`lingering_close`): a server that
 * closes a socket while request bytes are still unread makes the kernel send RST, and an RST can
 * discard the answer the client has not read yet (a 413 or a 431 written while the client is
 * still sending its body never reaches it). So, once the answer is written:
 *
 * 1. our side is shut (FIN after the answer), and Node's HTTP parser is detached from the socket
 *    (nothing more is parsed: no second answer, no new request);
 * 2. what the client still sends is read and thrown away, up to `maxBytes` and `maxMs`;
 * 3. the socket is destroyed when the client closes its side, or a bound is reached.
 *
 * DECISION: the bounds are 16 MiB and 5 s (nginx: `lingering_time` 30 s, `lingering_timeout` 5 s;
 * a gateway's bodies are small, and a connection draining is a connection held).
 */
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface LingerLimits {
  readonly maxBytes: number;
  readonly maxMs: number;
}

export const LINGER_LIMITS: LingerLimits = { maxBytes: 16 * 1024 * 1024, maxMs: 5_000 };

/** What Node's HTTP server leaves on a connection's socket (internals, read defensively). */
interface HttpParserHold {
  parser?: { _consumed?: boolean; unconsume?: () => void } | null;
  /** Set by Node's HTTP server when it stops reading for back-pressure. */
  _paused?: boolean;
  _handle?: { reading?: boolean; readStart?: () => number } | null;
}

const LINGERING = Symbol('recipe-gateway.lingering');

/** Writes nothing; ends our side after what is already written, drains the client's side within bounds, then destroys. */
export function closeLingering(socket: Duplex, limits: LingerLimits = LINGER_LIMITS): void {
  const marked = socket as Duplex & { [LINGERING]?: true };
  if (socket.destroyed || marked[LINGERING]) return;
  marked[LINGERING] = true;
  detachHttpParser(socket);
  let drained = 0;
  const stop = (): void => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(stop, limits.maxMs);
  timer.unref();
  socket.on('error', stop);
  socket.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > limits.maxBytes) stop();
  });
  socket.once('end', stop);
  socket.once('close', () => clearTimeout(timer));
  (socket as Partial<Socket>).setTimeout?.(0);
  socket.end();
  socket.resume();
}

/** Stops Node's HTTP server from parsing what comes next (as it does itself before handing a socket to 'upgrade'). */
function detachHttpParser(socket: Duplex): void {
  const held = socket as Duplex & HttpParserHold;
  const parser = held.parser;
  if (parser?._consumed && typeof parser.unconsume === 'function') {
    parser.unconsume();
    parser._consumed = false;
  }
  // The server's listeners: its parser's input, and its back-pressure switches (which would keep
  // a socket it had paused for an unread body from reading again).
  for (const event of ['data', 'end', 'timeout', 'pause', 'resume']) socket.removeAllListeners(event);
  held._paused = false;
  // The server may have stopped the handle itself (an unread body): the stream does not know.
  const handle = held._handle;
  if (handle && handle.reading === false && typeof handle.readStart === 'function') {
    handle.reading = true;
    handle.readStart();
  }
}

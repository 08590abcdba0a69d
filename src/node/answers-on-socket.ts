/**
 * Which answers a client connection still owes, so that what Node refuses on that connection (a
 * broken request after pipelined ones) is written after them, in order, never over them: every
 * request that was forwarded gets its own answer before the connection is closed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { closeLingering } from './lingering-close.js';

const OWED = Symbol('recipe-gateway.owed-answers');

interface Owed {
  count: number;
  /** The last request read on the connection. */
  last: IncomingMessage | undefined;
  readonly waiting: Array<() => void>;
}

type Tracked = Duplex & { [OWED]?: Owed };

/** The connection's record a response is owed on, until it is paid. */
const OWED_ON = Symbol('recipe-gateway.owed-on');

type Owing = ServerResponse & { [OWED_ON]?: Owed | undefined };

/**
 * Counts `res` as owed on its connection until `paidOnClose` runs for it: the caller's one `close`
 * listener (src/node/server.ts). Node emits `close` once the answer is written (the tick after
 * `finish`) or the connection is cut, so that covers both.
 */
export function oweAnswer(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket as Tracked;
  const owed = (socket[OWED] ??= { count: 0, last: undefined, waiting: [] });
  owed.count += 1;
  owed.last = req;
  (res as Owing)[OWED_ON] = owed;
}

/** The answer `res` is written or its connection cut: it is no longer owed. */
export function paidOnClose(res: ServerResponse): void {
  const owed = (res as Owing)[OWED_ON];
  if (!owed) return;
  (res as Owing)[OWED_ON] = undefined;
  owed.count -= 1;
  if (owed.count === 0 && owed.waiting.length > 0) for (const next of owed.waiting.splice(0)) next();
}

/** Whether answers are still owed on this connection. */
export function owesAnswers(socket: Duplex): boolean {
  return ((socket as Tracked)[OWED]?.count ?? 0) > 0;
}

/** Runs `then` once every owed answer on the connection is written (at once when none is). */
export function afterOwedAnswers(socket: Duplex, then: () => void): void {
  const owed = (socket as Tracked)[OWED];
  if (!owed || owed.count === 0) then();
  else owed.waiting.push(then);
}

/**
 * Node ends a connection with `destroySoon()` after its last answer; when request bytes are
 * still unread (a 413 answered before the body was read), that close is made lingering.
 */
export function lingerWhenUnread(socket: Duplex & { destroySoon?: () => void }): void {
  const destroySoon = socket.destroySoon?.bind(socket);
  if (!destroySoon) return;
  socket.destroySoon = () => {
    const req = (socket as Tracked)[OWED]?.last;
    if ((req && !req.complete) || socket.readableLength > 0) closeLingering(socket);
    else destroySoon();
  };
}

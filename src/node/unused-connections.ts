/**
 * The connections of a listener that have not sent a byte: a browser opens one ahead of need (a
 * preconnect) and may never use it. Node's `server.closeIdleConnections()` leaves such a connection
 * open (it is waiting for its first request), so a drain would wait its whole grace for it: Ctrl-C
 * on a gateway whose console was open in Chromium took 15 s. A drain closes them at once. On a TLS
 * listener the TLS socket is watched (its bytesRead counts the plain bytes, not the handshake's); a
 * connection still in its handshake is left to the TLS handshake timeout.
 */
import type { Server, Socket } from 'node:net';

/** Destroys every one of these connections that has not sent a byte yet. */
export function closeUnsent(sockets: Iterable<{ readonly bytesRead: number; destroy(): unknown }>): void {
  for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
}

/** For a listener nothing else watches (the admin one; the gateway's own are ListenerTracker's): its connections to close if unsent. */
export function unusedConnectionsOf(server: Server): { close(): void } {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return { close: () => closeUnsent(sockets) };
}

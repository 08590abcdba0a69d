/**
 * The connections of a listener that have not sent a byte: a browser opens one ahead of need (a
 * preconnect) and may never use it. Node's `server.closeIdleConnections()` leaves such a connection
 * open (it is waiting for its first request), so a drain would wait its whole grace for it: Ctrl-C
 * on a gateway whose console was open in Chromium took 15 s. A drain closes them at once. On a TLS
 * listener the TLS socket is watched (its bytesRead counts the plain bytes, not the handshake's); a
 * connection still in its handshake is left to the TLS handshake timeout.
 */
import type { Server, Socket } from 'node:net';

export interface UnusedConnections {
  /** Destroys every connection of the listener that has not sent a byte yet. */
  close(): void;
}

export function unusedConnectionsOf(server: Server, tls = false): UnusedConnections {
  const sockets = new Set<Socket>();
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    close: () => {
      for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    },
  };
}

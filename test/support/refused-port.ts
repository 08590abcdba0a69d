/**
 * A loopback port that refuses connections, for tests of "connection refused". A port found by
 * listening on port 0 and closing again is not one: the kernel hands the same port to the next
 * listen(0) of this or another test file running side by side, and the "refused" call then
 * reaches a live server (a CI run saw a timeout for a refusal that way). Ports below 1024 are
 * never handed out for listen(0) and no test listens on them; the search starts at 1023 because
 * fetch refuses the low "bad ports" (1, 7, 9, ...) itself, and the one returned is checked to refuse.
 */
import { connect } from 'node:net';

function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(false); });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

export async function refusedPort(): Promise<number> {
  for (let port = 1023; port > 0; port -= 1) if (await refuses(port)) return port;
  throw new Error('no loopback port below 1024 refuses connections here');
}

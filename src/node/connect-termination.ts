/**
 * CONNECT to a configured legacy host, terminated by the gateway itself.
 *
 * A legacy client configured with an HTTP proxy (the gateway) that follows a redirect to
 * `https://<legacy host>/…` asks its proxy for `CONNECT <legacy host>:443`. When the gateway has a
 * TLS listener, it answers `200 Connection Established` and hands the connection to that listener:
 * the client's TLS session ends at the gateway, with the operator's certificate (which must be
 * valid for the legacy host names, as it is when the gateway serves them directly), and its
 * requests inside are served like any https request. Nothing is ever tunnelled onward.
 *
 * Any other CONNECT (another host, another port, no TLS listener) keeps its 405
 * (src/node/node-refusals.ts). docs/proxy-mode.md describes the whole proxy-mode story.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { hostnameOf } from '../http/hosts.js';

/** Takes the CONNECT (true) or leaves it to be refused (false). */
export type ConnectTerminator = (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;

/** `host:port` of a CONNECT target (RFC 9110 §9.3.6 authority-form); null when it is not one. */
export function connectAuthority(target: string): { host: string; port: number } | null {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([0-9]{1,5})$/.exec(target);
  if (!match) return null;
  return { host: hostnameOf(match[1]!), port: Number(match[2]) };
}

/**
 * DECISION: accepted on port 443 (where a redirect to `https://<legacy host>/` sends the client)
 * and on the gateway's own https port; a legacy host entry that names a port matches that port.
 */
export function connectTerminator(isLegacyHost: (authority: string) => boolean, httpsPort: number, secure: Server): ConnectTerminator {
  return (req, socket, head) => {
    const authority = connectAuthority(req.url ?? '');
    if (!authority || (authority.port !== 443 && authority.port !== httpsPort)) return false;
    if (!isLegacyHost(`${authority.host}:${authority.port}`)) return false;
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    // Bytes the client sent after the CONNECT head (its TLS hello, when it did not wait).
    if (head.byteLength > 0) socket.unshift(head);
    secure.emit('connection', socket);
    return true;
  };
}

/**
 * The upstream client contract's server (upstream-client-contract.ts): a real HTTP server on
 * 127.0.0.1 that records what it received and answers per path (every byte value, repeated
 * headers, a redirect, a hang, a stalled or cut body, a cut connection), and a port that refuses
 * (refused-port.ts).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { refusedPort } from './refused-port.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

export const EVERY_BYTE = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));

function answer(path: string, method: string, res: ServerResponse): void {
  if (path.startsWith('/base/echo')) res.writeHead(201, { 'content-type': 'text/plain' }).end('seen');
  else if (path.startsWith('/bytes')) {
    res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
    res.writeHead(203, { 'Content-Type': 'application/octet-stream', 'X-Answer': 'Kept As Sent' }).end(method === 'HEAD' ? undefined : EVERY_BYTE);
  } else if (path.startsWith('/missing')) res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  else if (path.startsWith('/redirect')) res.writeHead(302, { location: '/elsewhere' }).end();
  else if (path.startsWith('/no-content')) res.writeHead(204).end();
  else if (path.startsWith('/big')) res.writeHead(200).end(Buffer.alloc(64 * 1024, 97));
  else if (path.startsWith('/stall-body')) res.writeHead(200, { 'content-type': 'text/plain' }).write('partial');
  else if (path.startsWith('/cut-body')) {
    res.writeHead(200, { 'content-length': '1000' }).write('partial');
    setTimeout(() => res.socket?.destroy(), 30);
  } else if (path.startsWith('/cut-before-answer')) res.socket?.destroy();
  // '/hang': never answers
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function contractUpstream() {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      answer(req.url ?? '', req.method ?? '', res);
    });
  });
  return {
    seen,
    async start(): Promise<{ base: string; refusedBase: string }> {
      return { base: await listening(server), refusedBase: `http://127.0.0.1:${await refusedPort()}` };
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

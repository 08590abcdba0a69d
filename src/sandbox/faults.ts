/**
 * Node-only: a misbehaving upstream on 127.0.0.1, for reliability tests. One named fault mode per
 * server (switchable with `setMode`), plain HTTP or TLS (a fresh self-signed certificate, trusted
 * through `caFile` as for the api2 sandbox: verification is never turned off).
 *
 *   refuse             nothing listens on the port: connections are refused
 *   silent             accepts the connection, reads the request, never answers
 *   headers-then-hang  sends 200 and its headers (with a Content-Length), part of the body, then stalls
 *   reset-mid-body     sends 200, its headers and part of the body, then resets the connection (RST)
 *   status-5xx         answers `status` (default 503) with a legacy-style JSON error
 *   invalid-json       answers 200 application/json whose body is not JSON (cut off mid-document)
 *   oversized-body     answers 200 with `bodyBytes` of JSON, chunked (no Content-Length to refuse early)
 *   slow-trickle       answers 200 and then one byte of body every `trickleIntervalMs`, for ever
 *   ok                 answers 200 `{"ok":true}` (to prove a connection works)
 *
 * It counts what the tests need to see that nothing leaks: sockets open now, connections ever
 * accepted, and for each request whether its connection closed before the answer was complete
 * (the gateway cancelled it).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { toLegacyJson } from '../legacy/legacy-json.js';

export const FAULT_MODES = [
  'refuse',
  'silent',
  'headers-then-hang',
  'reset-mid-body',
  'status-5xx',
  'invalid-json',
  'oversized-body',
  'slow-trickle',
  'ok',
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface FaultUpstreamOptions {
  readonly mode: FaultMode;
  /** Serve over TLS (api2 is https only). */
  readonly tls?: boolean;
  /** status-5xx: the status (500-599). Default 503. */
  readonly status?: number;
  /** oversized-body: bytes of body sent. Default 2 MiB. */
  readonly bodyBytes?: number;
  /** slow-trickle: milliseconds between bytes. Default 50. */
  readonly trickleIntervalMs?: number;
}

export interface FaultRequest {
  readonly method: string;
  /** Path and query as received. */
  readonly target: string;
  readonly headers: IncomingMessage['headers'];
  /** Bytes of request body received. */
  bodyBytes: number;
  /** The connection closed before the answer was complete. */
  aborted: boolean;
}

export interface StartedFaultUpstream {
  /** `http(s)://127.0.0.1:<port>`. */
  readonly origin: string;
  /** TLS only: the certificate to trust, and the same written to a file for the gateway's config. */
  readonly caPem: string | undefined;
  readonly caFile: string | undefined;
  readonly mode: FaultMode;
  readonly requests: FaultRequest[];
  /** Sockets open now (server side). */
  openSockets(): number;
  /** Connections accepted since start. */
  connections(): number;
  /** Changes the fault for the next requests (not `refuse`: the port is already listening). */
  setMode(mode: Exclude<FaultMode, 'refuse'>): void;
  /** Stops listening, destroys every socket, removes caFile. */
  close(): Promise<void>;
}

const DEFAULT_BODY_BYTES = 2 * 1024 * 1024;

export async function startFaultUpstream(options: FaultUpstreamOptions): Promise<StartedFaultUpstream> {
  const scheme = options.tls ? 'https' : 'http';
  let caPem: string | undefined;
  let caFile: string | undefined;
  let dir: string | undefined;
  let key: string | undefined;
  if (options.tls) {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    dir = await mkdtemp(join(tmpdir(), 'fault-upstream-'));
    caFile = join(dir, 'fault-upstream-cert.pem');
    await writeFile(caFile, pems.cert);
    caPem = pems.cert;
    key = pems.private;
  }
  const removeDir = async (): Promise<void> => {
    if (dir) await rm(dir, { recursive: true, force: true });
  };

  if (options.mode === 'refuse') {
    const port = await unusedPort();
    return {
      origin: `${scheme}://127.0.0.1:${port}`,
      caPem,
      caFile,
      mode: 'refuse',
      requests: [],
      openSockets: () => 0,
      connections: () => 0,
      setMode: () => {
        throw new Error('a refusing fault upstream has no listener to change');
      },
      close: removeDir,
    };
  }

  const requests: FaultRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setInterval>>();
  let accepted = 0;

  const state: { mode: FaultMode } = { mode: options.mode };
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const seen: FaultRequest = { method: req.method ?? '', target: req.url ?? '', headers: req.headers, bodyBytes: 0, aborted: false };
    requests.push(seen);
    res.on('close', () => {
      if (!res.writableFinished) seen.aborted = true;
    });
    // The client going away closes the connection at once, answer pending or not (Node would
    // otherwise keep a TLS socket with a pending answer open until its keep-alive timeout).
    req.socket.once('end', () => req.socket.destroy());
    req.on('data', (chunk: Buffer) => (seen.bodyBytes += chunk.byteLength));
    req.on('end', () => answer(state.mode, req, res, options, timers));
  };

  const server: Server =
    options.tls && caPem && key ? createHttpsServer({ key, cert: caPem }, handler) : createHttpServer(handler);
  // Over TLS, 'connection' hands over the raw TCP socket, whose own 'close' comes late or never
  // once TLS has taken it over: the TLS socket is counted instead, from the handshake on.
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  };
  server.on('connection', (socket: Socket) => {
    accepted += 1;
    if (!options.tls) track(socket);
  });
  if (options.tls) server.on('secureConnection', track);
  server.on('clientError', (_error, socket) => socket.destroy());
  server.on('tlsClientError', () => undefined);
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    origin: `${scheme}://127.0.0.1:${port}`,
    caPem,
    caFile,
    get mode() {
      return state.mode;
    },
    requests,
    openSockets: () => sockets.size,
    connections: () => accepted,
    setMode: (mode) => {
      state.mode = mode;
    },
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      await removeDir();
    },
  };
}

function answer(
  mode: FaultMode,
  req: IncomingMessage,
  res: ServerResponse,
  options: FaultUpstreamOptions,
  timers: Set<ReturnType<typeof setInterval>>,
): void {
  switch (mode) {
    case 'refuse':
    case 'silent':
      return;
    case 'ok':
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"ok":true}');
      return;
    case 'headers-then-hang':
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': '1000' });
      res.write('{"Results":[');
      return;
    case 'reset-mid-body': {
      // Declares less than any sensible limit, sends a fifth of it, then resets.
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': '10000' });
      res.write(`{"Results":[${'1,'.repeat(1000)}`, () => {
        setTimeout(() => {
          // A TCP reset; over TLS (no TCP handle to reset) an abrupt close without close_notify.
          try {
            req.socket.resetAndDestroy();
          } catch {
            req.socket.destroy();
          }
        }, 5);
      });
      return;
    }
    case 'status-5xx': {
      const status = options.status ?? 503;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(toLegacyJson({ Message: `upstream fault: ${status}` }));
      return;
    }
    case 'invalid-json':
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"ResultCount": 3, "Results": [{"RecipeID": 1, "Title": "Soup"');
      return;
    case 'oversized-body': {
      const total = options.bodyBytes ?? DEFAULT_BODY_BYTES;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      let sent = 0;
      res.write('[');
      const pump = (): void => {
        while (sent < total && !res.destroyed) {
          sent += chunk.byteLength;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end(']');
      };
      pump();
      return;
    }
    case 'slow-trickle': {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      const timer = setInterval(() => {
        if (res.destroyed) {
          clearInterval(timer);
          timers.delete(timer);
          return;
        }
        res.write(' ');
      }, options.trickleIntervalMs ?? 50);
      timers.add(timer);
      res.once('close', () => {
        clearInterval(timer);
        timers.delete(timer);
      });
      return;
    }
  }
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
async function unusedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

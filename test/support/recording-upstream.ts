/**
 * A real HTTP server on 127.0.0.1 that records every request it receives (method, raw target,
 * headers, body, and whether the client went away before the answer) and answers with a handler.
 * Used wherever a test must prove what did, or did not, reach an upstream.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: IncomingMessage['headers'];
  readonly rawHeaders: string[];
  body: Buffer;
  /** The connection closed before the answer was complete. */
  clientAborted: boolean;
}

export type UpstreamHandler = (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest) => void;

export interface RecordingUpstream {
  readonly origin: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

const defaultHandler: UpstreamHandler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end('{"ok":true}');
};

export async function startRecordingUpstream(handler: UpstreamHandler = defaultHandler): Promise<RecordingUpstream> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      target: req.url ?? '',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body: Buffer.alloc(0),
      clientAborted: false,
    };
    requests.push(recorded);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('close', () => {
      if (!res.writableFinished) recorded.clientAborted = true;
    });
    req.on('end', () => {
      recorded.body = Buffer.concat(chunks);
      handler(req, res, recorded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

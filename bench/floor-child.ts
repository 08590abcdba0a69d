/**
 * Child process: the floor of our own stack. Hono on @hono/node-server forwarding `GET /recipes…`
 * to the legacy upstream with an undici `Pool.dispatch` handler that collects the chunks and
 * answers `new Response(bytes, { status, headers: plainObject })`: nothing else (no validation, no
 * routing, no hop-by-hop filtering), and with `log: true` one usage-log line per request
 * (bench/anchor-log.ts). What the gateway costs beyond this is its own work. With `caFile`, the
 * upstream is the canned api2 over https (same TLS, same bytes as the gateway's api2 calls): the
 * floor the api2-mapped search is judged against. Reports { origin }.
 */
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { Pool, util } from 'undici';
import type { Dispatcher } from 'undici';
import { createAnchorLog } from './anchor-log.js';
import { runChild } from './ipc.js';
import { serveAnchor } from './serve-anchor.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

function forward(pool: Pool, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let rawHeaders: Buffer[] = [];
    const chunks: Buffer[] = [];
    const handler: Dispatcher.DispatchHandler = {
      onConnect: () => undefined,
      onHeaders: (statusCode, headers) => {
        status = statusCode;
        rawHeaders = headers;
        return true;
      },
      onData: (chunk) => {
        chunks.push(chunk);
        return true;
      },
      onComplete: () => {
        const headers = util.parseHeaders(rawHeaders) as Record<string, string>;
        delete headers['connection'];
        delete headers['keep-alive'];
        resolve({ status, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
      },
      onError: reject,
    };
    pool.dispatch({ method: 'GET', path, headers: { accept: 'application/json' } }, handler);
  });
}

runChild<{ upstream: string; log: boolean; caFile?: string }>(async ({ upstream, log, caFile }) => {
  const tls = caFile ? { connect: { ca: readFileSync(caFile) } } : {};
  const pool = new Pool(upstream, { connections: 64, pipelining: 1, keepAliveTimeout: 4000, ...tls });
  const usage = log ? createAnchorLog() : undefined;
  const app = new Hono();
  app.get('/recipes', async (c) => {
    const startedAt = performance.now();
    const url = c.req.url;
    const answer = await forward(pool, url.slice(url.indexOf('/', 8)));
    usage?.log({ status: answer.status, bytesOut: answer.body.byteLength, startedAt });
    return new Response(answer.body as Uint8Array<ArrayBuffer>, { status: answer.status, headers: answer.headers });
  });
  const served = await serveAnchor(app);
  return {
    info: { origin: served.origin },
    close: async () => {
      await served.close();
      await pool.close();
      usage?.close();
    },
  };
});

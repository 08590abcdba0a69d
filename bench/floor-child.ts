/**
 * Child: the floor. Hono forwarding to the upstream through an undici `Pool.dispatch` handler, nothing
 * else; `log: true` adds one log line (bench/anchor-log.ts); `caFile`: to the canned api2 over https.
 */
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { Pool, util } from 'undici';
import type { Dispatcher } from 'undici';
import { createAnchorLog } from './anchor-log.js';
import { runChild } from './ipc.js';
import { serveAnchor } from './serve-anchor.js';

type Answer = { readonly status: number; readonly headers: Record<string, string>; readonly body: Buffer };

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
    close: () => served.close().then(() => pool.close()).then(() => usage?.close()),
  };
});

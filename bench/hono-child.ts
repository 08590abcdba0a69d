/**
 * Child: bare Hono on @hono/node-server answering `GET /recipes` with the legacy page from memory
 * (the cache-hit anchor); `log: true` adds one usage-log line (bench/anchor-log.ts). Reports { origin }.
 */
import { Hono } from 'hono';
import { createAnchorLog } from './anchor-log.js';
import { runChild } from './ipc.js';
import { serveAnchor } from './serve-anchor.js';
import { JSON_CONTENT_TYPE, cannedPages } from './pages.js';

runChild<{ log?: boolean }>(async ({ log }) => {
  const page = new Uint8Array(cannedPages().legacy);
  const usage = log ? createAnchorLog() : undefined;
  const app = new Hono();
  app.get(
    '/recipes',
    usage
      ? (c) => {
          usage.log({ status: 200, bytesOut: page.byteLength, startedAt: performance.now() });
          return c.body(page, 200, { 'content-type': JSON_CONTENT_TYPE });
        }
      : (c) => c.body(page, 200, { 'content-type': JSON_CONTENT_TYPE }),
  );
  const served = await serveAnchor(app);
  return { info: { origin: served.origin }, close: () => served.close().then(() => usage?.close()) };
});

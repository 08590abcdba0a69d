/**
 * Child process: the baseline of the cache-hit scenario, a bare Hono app on @hono/node-server
 * answering `GET /recipes` with the legacy search page from memory (the same bytes and
 * content-type the gateway's cache serves); with `log: true` also one usage-log line per request
 * (bench/anchor-log.ts), the anchor of a cache HIT with the log on. Reports { origin }.
 */
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { createAnchorLog } from './anchor-log.js';
import { runChild } from './ipc.js';
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
  const server = await new Promise<ServerType>((resolve, reject) => {
    const created = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(created));
    created.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    info: { origin: `http://127.0.0.1:${port}` },
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }).then(() => usage?.close()),
  };
});

/** A Hono anchor on @hono/node-server at a free loopback port: its origin, and a close that cuts keep-alive connections. */
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';

export async function serveAnchor(app: Hono): Promise<{ readonly origin: string; close(): Promise<void> }> {
  const server = await new Promise<ServerType>((resolve, reject) => {
    const created = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(created));
    created.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

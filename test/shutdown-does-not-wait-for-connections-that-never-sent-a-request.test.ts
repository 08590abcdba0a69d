/**
 * A drain does not wait for connections that never sent a request (a browser's preconnect: Chromium
 * opens one to the console's listener ahead of need). Node's closeIdleConnections leaves them open,
 * and Ctrl-C on a demo whose console was open in Chromium waited its whole grace (15 s) with nothing
 * in flight. On the main listener, the TLS listener (after the handshake) and the admin listener.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect as connectTcp } from 'node:net';
import type { Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, describe, expect, it } from 'vitest';
import { startRigGateway } from './reliability-support.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function certificate(): Promise<{ certFile: string; keyFile: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'unused-connections-'));
  dirs.push(dir);
  const made = await generate([{ name: 'commonName', value: 'gateway.test' }], { keySize: 2048, algorithm: 'sha256' });
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  await Promise.all([writeFile(certFile, made.cert), writeFile(keyFile, made.private)]);
  return { certFile, keyFile };
}

/** A connection that is open and says nothing: to a plain listener, or through a TLS handshake. */
function silentConnection(origin: string): Promise<Socket> {
  const url = new URL(origin);
  const port = Number(url.port);
  return new Promise((resolve, reject) => {
    const socket = url.protocol === 'https:' ? connectTls({ host: url.hostname, port, rejectUnauthorized: false }) : connectTcp(port, url.hostname);
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('a drain and connections that never sent a request', () => {
  it('closes them at once on every listener and finishes as drained, not at its deadline', async () => {
    const tls = await certificate();
    const gateway = await startRigGateway({
      upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' } },
      listen: { host: '127.0.0.1', port: 0, https: { port: 0, ...tls } },
      observability: { admin: { listen: { host: '127.0.0.1', port: 0 } } },
    });
    const origins = [gateway.running.httpOrigin, gateway.running.httpsOrigin!, gateway.running.adminOrigin!];
    const sockets = await Promise.all(origins.map(silentConnection));
    const ended = sockets.map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())));
    for (const socket of sockets) socket.on('error', () => undefined);
    const outcome = await gateway.running.drain(10_000);
    expect(outcome).toMatchObject({ drained: true, cut: 0 });
    await Promise.all(ended);
  }, 30_000);
});

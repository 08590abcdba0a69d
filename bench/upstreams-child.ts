/** Child: the canned upstreams (bench/pages.ts), legacy over http, api2 over https (certificate made at start, its PEM the gateways' CA). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { runChild } from './ipc.js';
import { JSON_CONTENT_TYPE, cannedPages } from './pages.js';

function cannedHandler(page: Buffer) {
  const length = String(page.byteLength);
  return (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '';
    if ((request.method === 'GET' || request.method === 'HEAD') && (url === '/recipes' || url.startsWith('/recipes?'))) {
      response.writeHead(200, { 'content-type': JSON_CONTENT_TYPE, 'content-length': length });
      response.end(request.method === 'HEAD' ? undefined : page);
      return;
    }
    if (request.method === 'POST' && url === '/v1/traces') {
      // The OTLP receiver of the traced gateways (scenarios passthrough-traces-*): reads the export, takes it.
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': '0' });
        response.end();
      });
      return;
    }
    response.writeHead(404, { 'content-type': JSON_CONTENT_TYPE });
    response.end('{"Message":"not canned"}');
  };
}

function listen(server: Server): Promise<number> {
  // Longer than the gateway pool's idle timeout, so the gateway closes idle sockets first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

runChild(async () => {
  const pages = cannedPages();
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const dir = await mkdtemp(join(tmpdir(), 'bench-api2-'));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, pems.cert);

  const legacy = createServer(cannedHandler(pages.legacy));
  const api2 = createHttpsServer({ key: pems.private, cert: pems.cert }, cannedHandler(pages.api2));
  const legacyPort = await listen(legacy);
  const api2Port = await listen(api2);
  return {
    info: {
      legacyOrigin: `http://127.0.0.1:${legacyPort}`,
      api2Origin: `https://127.0.0.1:${api2Port}`,
      caFile,
      legacyBytes: pages.legacy.byteLength,
      api2Bytes: pages.api2.byteLength,
      entries: pages.entries,
    },
    async close() {
      for (const server of [legacy, api2]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
});

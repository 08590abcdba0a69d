/**
 * A real HTTPS server on 127.0.0.1 with a certificate made for the test (trusted through a CA
 * file, never by turning verification off), answering with a handler. Stands in for a
 * misbehaving api2.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TlsUpstream {
  readonly origin: string;
  readonly caFile: string;
  readonly seen: Array<{ method: string; target: string }>;
  close(): Promise<void>;
}

export async function startTlsUpstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TlsUpstream> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const dir = await mkdtemp(join(tmpdir(), 'tls-upstream-'));
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, pems.cert);
  const seen: Array<{ method: string; target: string }> = [];
  const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '' });
    req.resume();
    req.on('end', () => handler(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    caFile,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

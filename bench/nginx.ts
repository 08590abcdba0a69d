/**
 * nginx `proxy_pass` in front of the legacy upstream, when `nginx` is on PATH (the C reference):
 * `daemon off`, one worker, loopback only, no access log, config in a temp dir removed on stop.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tracked } from './children.js';
import type { Child } from './children.js';

/** The nginx binary on PATH, or undefined. */
export function findNginx(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : undefined;
}

/** A loopback port free at the time of asking. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function config(dir: string, port: number, upstream: URL): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`).join('\n');
  return `worker_processes 1;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
${temp}
  upstream legacy { server ${upstream.host}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / { proxy_pass http://legacy; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
`;
}

async function waitListening(port: number, deadline: number): Promise<void> {
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/nginx-probe`).then((r) => r.arrayBuffer().then(() => true), () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error('nginx: not listening after 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startNginx(binary: string, upstreamOrigin: string): Promise<Child> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-nginx-'));
  const port = await freePort();
  const file = join(dir, 'nginx.conf');
  await writeFile(file, config(dir, port, new URL(upstreamOrigin)));
  const child = spawn(binary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', file], { stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitListening(port, Date.now() + 10_000);
  } catch (error) {
    await kill();
    throw error;
  }
  return { name: 'nginx', pid: child.pid ?? -1, info: { origin: `http://127.0.0.1:${port}` }, kill: tracked(kill) };
}

/**
 * A real clickhouse-server for a test: Debian's package (`clickhouse-server`, or the single
 * `clickhouse` binary's `server` command) found on PATH or in /usr/sbin, /sbin, started on a free loopback HTTP port
 * with a minimal config in a temporary folder (data included), and stopped and removed after.
 */
import { freePort } from './started-process.js';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ClickHouseServer {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  stop(): Promise<void>;
}

/** On PATH, else in /usr/sbin or /sbin (where Debian puts clickhouse-server, often not on a user's PATH). */
function find(name: string): string | undefined {
  if (spawnSync('sh', ['-c', `command -v ${name}`]).status === 0) return name;
  return ['/usr/sbin', '/sbin'].map((dir) => `${dir}/${name}`).find((path) => existsSync(path));
}

function command(): [string, string[]] {
  const server = find('clickhouse-server');
  if (server) return [server, []];
  const single = find('clickhouse');
  if (single) return [single, ['server']];
  throw new Error('clickhouse-server is not installed (Debian package clickhouse-server; .ci/run installs it)');
}


const users = `<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`;

const config = (dir: string, port: number): string => `<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <http_port>${port}</http_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <users_config>${dir}/users.xml</users_config>
  <mark_cache_size>67108864</mark_cache_size>
</yandex>
`;

export async function startClickHouse(): Promise<ClickHouseServer> {
  const [program, args] = command();
  const dir = await mkdtemp(join(tmpdir(), 'clickhouse-test-'));
  await mkdir(join(dir, 'data'));
  await mkdir(join(dir, 'tmp'));
  await writeFile(join(dir, 'users.xml'), users);
  const port = await freePort();
  await writeFile(join(dir, 'config.xml'), config(dir, port));
  const child = spawn(program, [...args, `--config-file=${join(dir, 'config.xml')}`], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}/`;
  const stop = async (): Promise<void> => {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`clickhouse-server exited (${child.exitCode}): ${output()}`);
    try {
      const response = await fetch(`${url}ping`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`clickhouse-server did not answer within 60 s: ${output()}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}


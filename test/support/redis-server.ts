/**
 * A real redis-server (found on PATH) for a test: on 127.0.0.1, a free port, no persistence, a
 * bounded memory with LRU eviction of the keys with a TTL (volatile-lru, as deploy/k8s/redis.yaml). It can be killed (SIGKILL, as a crash) and started again on
 * the same port, and is stopped by close().
 */
import { freePort } from './started-process.js';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** SIGKILL: the server dies at once, connections are cut. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: no persistence). */
  restart(): Promise<void>;
  /** A plain client on it (closed by close()). */
  client(): Redis;
  close(): Promise<void>;
}


async function waitForPing(port: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      probe.disconnect();
    }
  }
}

export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const clients: Redis[] = [];
  const start = async (): Promise<void> => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory', '64mb', '--maxmemory-policy', 'volatile-lru'];
    child = spawn('redis-server', args, { stdio: 'ignore' });
    child.on('error', () => undefined);
    await waitForPing(port);
  };
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(signal);
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => stop('SIGKILL'),
    restart: start,
    client() {
      const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 });
      client.on('error', () => undefined);
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.disconnect();
      await stop('SIGTERM');
    },
  };
}

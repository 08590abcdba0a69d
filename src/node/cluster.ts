/**
 * `workers: N | "auto"` (config) or `--workers`: the gateway as N node:cluster workers
 * (src/node/cluster-worker.ts) behind one primary, which holds no request path of its own:
 *
 * - the listeners are shared: node:cluster's primary accepts and hands connections round-robin
 *   (its default on Linux: even load; the kernel's own spreading leaves some workers idle);
 * - one usage-log stream: workers write their lines to their stdout, the primary writes whole
 *   lines to the configured destination (src/node/log-relay.ts);
 * - metrics: the primary's admin listener answers with every worker's registry aggregated
 *   (prom-client's AggregatorRegistry); each worker keeps its own pools and its own cache;
 * - reload: a validated config goes to every worker (SIGHUP and file changes are the primary's);
 * - SIGTERM/SIGINT: every worker drains (limits.shutdownGraceMs); the primary exits once all have;
 * - a worker that dies outside a shutdown is replaced, with the config in force.
 */
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { AggregatorRegistry } from 'prom-client';
import type { GatewayConfig } from '../config/schema.js';
import { createAdminApp } from '../admin/routes.js';
import { adminAccess } from '../observability/node/admin-access.js';
import { createUsageLog } from '../observability/node/usage-log.js';
import { instanceId, originSource } from '../observability/node/origin.js';
import { configHash } from './config-hash.js';
import type { FromWorker, ToWorker } from './cluster-messages.js';
import { isFromWorker } from './cluster-messages.js';
import { createPageDropRelay } from './fleet/page-drop-relay.js';
import type { ReloadOutcome } from './generations.js';
import { relayLines } from './log-relay.js';
import type { DrainOutcome, RunningGateway } from './server.js';

const RESPAWN_DELAY_MS = 1000;

/** `auto`: one worker per core this process may use. */
export function workerCount(setting: number | 'auto'): number {
  return setting === 'auto' ? availableParallelism() : setting;
}

/** The primary answers no request: the live counters are the workers' (summed through Redis when `cache.redis` is set). */
export type ClusterGateway = Omit<RunningGateway, 'stats' | 'live' | 'rollout'> & { readonly workers: () => number };

function send(worker: Worker, message: ToWorker): void {
  if (worker.isConnected()) worker.send(message);
}

export async function startCluster(config: GatewayConfig, count: number): Promise<ClusterGateway> {
  let current = config;
  let version = 1;
  let stopping = false;
  const notes: string[] = [`${count} workers (node:cluster)`];
  let hash = configHash(config);
  // The primary's own lines (events) carry its instance and the config in force, as the workers' do.
  const usageLog = config.observability.log.enabled ? createUsageLog(config.observability.log, originSource(instanceId(config.observability.instance), () => hash)) : undefined;
  const other = config.observability.log.enabled && config.observability.log.destination === 'stdout' ? process.stderr : process.stdout;
  const workers = new Set<Worker>();
  const drained: DrainOutcome[] = [];
  let reloadId = 0;
  const reloads = new Map<number, { pending: number; outcome?: ReloadOutcome; error?: string; done: () => void }>();
  const relayPageDrops = createPageDropRelay(() => workers);

  // The worker entry beside this module (.ts under tsx, .js compiled); node flags are inherited.
  const exec = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './worker-main.ts' : './worker-main.js', import.meta.url));
  cluster.setupPrimary({ exec, args: [], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });

  const fork = (): Promise<FromWorker & { type: 'gateway:ready' }> => {
    const worker = cluster.fork();
    workers.add(worker);
    if (worker.process.stdout) relayLines(worker.process.stdout, { lines: (bytes) => usageLog?.relay(bytes), other: (text) => other.write(text) });
    worker.on('message', (message: unknown) => {
      if (!isFromWorker(message)) return;
      relayPageDrops(worker, message);
      if (message.type === 'gateway:drained') drained.push(message);
      if (message.type === 'gateway:reloaded' || message.type === 'gateway:reload-failed') {
        const reload = reloads.get(message.id);
        if (!reload) return;
        if (message.type === 'gateway:reloaded') reload.outcome ??= message.outcome;
        else reload.error ??= message.message;
        if (--reload.pending === 0) reload.done();
      }
    });
    worker.once('exit', (code, signal) => {
      workers.delete(worker);
      if (stopping) return;
      usageLog?.event('worker-exit', { pid: worker.process.pid, code, signal });
      setTimeout(() => {
        if (!stopping) fork().catch((error: unknown) => usageLog?.event('worker-failed', { error: String(error) }));
      }, RESPAWN_DELAY_MS).unref();
    });
    return new Promise((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if (!isFromWorker(message)) return;
        if (message.type === 'gateway:listening') return send(worker, { type: 'gateway:start', config: current });
        if (message.type === 'gateway:ready') resolve(message);
        else if (message.type === 'gateway:failed') reject(new Error(`worker failed to start: ${message.message}`));
        else return;
        worker.off('message', onMessage);
      };
      worker.on('message', onMessage);
      worker.once('exit', (code) => reject(new Error(`worker exited before it was ready (code ${code})`)));
    });
  };

  const admin = await startAdmin(config, notes);
  let ready: Array<FromWorker & { type: 'gateway:ready' }>;
  try {
    ready = await Promise.all(Array.from({ length: count }, fork));
  } catch (error) {
    stopping = true;
    for (const worker of workers) worker.process.kill('SIGKILL');
    admin?.server.close();
    await usageLog?.close();
    throw error;
  }
  const first = ready[0]!;
  notes.push(...first.notes);

  let draining: Promise<DrainOutcome> | undefined;
  const drain = (deadlineMs: number): Promise<DrainOutcome> => {
    stopping = true;
    for (const worker of workers) send(worker, { type: 'gateway:drain', deadlineMs });
    draining ??= (async () => {
      const started = Date.now();
      await Promise.all([...workers].map((worker) => (worker.isDead() ? undefined : new Promise((resolve) => worker.once('exit', resolve)))));
      admin?.server.closeAllConnections();
      await new Promise((resolve) => (admin ? admin.server.close(resolve) : resolve(undefined)));
      await usageLog?.close();
      return {
        drained: drained.length === count && drained.every((d) => d.drained),
        cut: drained.reduce((sum, d) => sum + d.cut, 0),
        ms: Date.now() - started,
      };
    })();
    return draining;
  };

  return {
    httpOrigin: first.httpOrigin,
    httpsOrigin: first.httpsOrigin,
    adminOrigin: admin?.origin,
    metricsUrl: admin ? `${admin.origin}${config.observability.metrics.path}` : undefined,
    notes,
    workers: () => workers.size,
    drain,
    close: async () => {
      await drain(current.limits.shutdownGraceMs);
    },
    reload: async (next) => {
      const id = ++reloadId;
      const live = [...workers].filter((w) => w.isConnected());
      const entry: { pending: number; outcome?: ReloadOutcome; error?: string; done: () => void } = { pending: live.length, done: () => undefined };
      const done = new Promise<void>((resolve) => (entry.done = resolve));
      reloads.set(id, entry);
      current = next;
      for (const worker of live) send(worker, { type: 'gateway:reload', id, config: next });
      if (live.length > 0) await done;
      reloads.delete(id);
      if (entry.error !== undefined || !entry.outcome) throw new Error(`reload failed in a worker: ${entry.error ?? 'no answer'}`);
      version = entry.outcome.version;
      hash = entry.outcome.configHash;
      return entry.outcome;
    },
    version: () => version,
    configHash: () => hash,
    event: (name, fields) => usageLog?.event(name, fields),
  };
}

/** The primary's admin listener: the metrics of every worker, aggregated. */
async function startAdmin(config: GatewayConfig, notes: string[]): Promise<{ server: Server; origin: string } | undefined> {
  const obs = config.observability;
  if (!obs.metrics.enabled) return undefined;
  if (!obs.admin.listen) {
    if (adminAccess(obs).bearerToken !== undefined) notes.push('metrics on the main listener are the answering worker\'s own: set observability.admin.listen for every worker\'s, aggregated');
    return undefined;
  }
  notes.push('admin listener: metrics aggregated over the workers (the /admin/config and /admin/traffic views are not served with workers > 1)');
  const aggregator = new AggregatorRegistry();
  const app = createAdminApp({
    metricsPath: obs.metrics.path,
    ...adminAccess(obs),
    metrics: { render: async () => ({ contentType: aggregator.contentType, body: await aggregator.clusterMetrics() }) },
  });
  const server = createServer(getRequestListener(app.fetch));
  const { host, port } = obs.admin.listen;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return { server, origin: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}` };
}

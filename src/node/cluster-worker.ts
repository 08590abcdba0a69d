/**
 * A cluster worker (src/node/cluster.ts): waits for its config from the primary, starts the
 * gateway on the shared listeners (node:cluster hands the same sockets to every worker; port 0
 * is one port for all), with its own upstream pools and its own cache, and its usage log on
 * stdout, the pipe the primary reads (src/node/log-relay.ts). The admin listener is the
 * primary's. Reloads and drains come as messages; SIGTERM/SIGINT sent to the whole process group
 * drain too (a second signal cuts). A worker whose primary is gone drains and exits.
 */
import type { GatewayConfig } from '../config/schema.js';
import type { FromWorker, ToWorker } from './cluster-messages.js';
import { startGateway } from './server.js';
import type { RunningGateway } from './server.js';

/** The worker's view of the config: its usage log goes to the primary through stdout. */
export function workerConfig(config: GatewayConfig): GatewayConfig {
  const log = config.observability.log;
  return log.enabled ? { ...config, observability: { ...config.observability, log: { ...log, destination: 'stdout' } } } : config;
}

function send(message: FromWorker): void {
  if (process.connected) process.send?.(message);
}

export function runWorker(): void {
  let gateway: RunningGateway | undefined;
  let grace = 15_000;
  let stopping: Promise<unknown> | undefined;
  const drain = (deadlineMs: number): void => {
    if (!gateway) process.exit(0);
    // A later call only brings the deadline closer; the first one's outcome ends the process.
    const outcome = gateway.drain(deadlineMs);
    stopping ??= outcome.then(
      (done) => {
        send({ type: 'gateway:drained', drained: done.drained, cut: done.cut, ms: done.ms });
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  let signals = 0;
  const onSignal = (): void => drain(++signals > 1 ? 0 : grace);
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  process.on('disconnect', () => drain(grace));

  process.on('message', (message: ToWorker) => {
    switch (message.type) {
      case 'gateway:start':
        grace = message.config.limits.shutdownGraceMs;
        startGateway(workerConfig(message.config), { serveAdmin: false }).then(
          (started) => {
            gateway = started;
            send({ type: 'gateway:ready', httpOrigin: started.httpOrigin, httpsOrigin: started.httpsOrigin, notes: started.notes });
          },
          (error: unknown) => {
            send({ type: 'gateway:failed', message: error instanceof Error ? error.message : String(error) });
            process.exitCode = 1;
            process.disconnect();
          },
        );
        return;
      case 'gateway:reload':
        if (!gateway) return send({ type: 'gateway:reload-failed', id: message.id, message: 'not started' });
        grace = message.config.limits.shutdownGraceMs;
        gateway.reload(workerConfig(message.config)).then(
          (outcome) => send({ type: 'gateway:reloaded', id: message.id, outcome }),
          (error: unknown) => send({ type: 'gateway:reload-failed', id: message.id, message: String(error) }),
        );
        return;
      case 'gateway:drain':
        drain(message.deadlineMs);
        return;
    }
  });
  send({ type: 'gateway:listening' });
}

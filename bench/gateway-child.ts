/** Child: one gateway started as `npm start` would (startGateway, or startCluster for workers > 1) from the config given. Reports { origin }. */
import { parseConfig } from '../src/config/schema.js';
import { startCluster, workerCount } from '../src/node/cluster.js';
import { startGateway } from '../src/node/server.js';
import { runChild } from './ipc.js';

runChild<{ config: unknown }>(async ({ config }) => {
  const parsed = parseConfig(config);
  if (!parsed.ok) throw new Error(`bench gateway config refused:\n${parsed.errors.join('\n')}`);
  const workers = workerCount(parsed.config.workers);
  const gateway = workers > 1 ? await startCluster(parsed.config, workers) : await startGateway(parsed.config);
  return { info: { origin: gateway.httpOrigin }, close: () => gateway.close() };
});

/**
 * Child process: one gateway under test, started as `npm start` would (parseConfig, then
 * startGateway, or startCluster when the config asks for more than one worker), from the config
 * document given as the spec. Reports { origin }.
 */
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

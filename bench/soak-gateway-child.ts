/**
 * Child process of `npm run soak`: one gateway, started as `npm start` would (parseConfig, then
 * startGateway), from the config given as the spec; answers the soak's memory probe. Reports { origin }.
 */
import { parseConfig } from '../src/config/schema.js';
import { startGateway } from '../src/node/server.js';
import { runChild } from './ipc.js';
import { answerMemoryRequests } from './soak-memory.js';

answerMemoryRequests();
runChild<{ config: unknown }>(async ({ config }) => {
  const parsed = parseConfig(config);
  if (!parsed.ok) throw new Error(`soak gateway config refused:\n${parsed.errors.join('\n')}`);
  const gateway = await startGateway(parsed.config);
  return { info: { origin: gateway.httpOrigin }, close: () => gateway.close() };
});

/** Child of the soak: the sandbox legacy (http) and api2 (https) backends. Reports { legacyOrigin, api2Origin, caFile }. */
import { startApi2Sandbox } from '../src/sandbox/api2-start.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import { runChild } from './ipc.js';

runChild(async () => {
  const [legacy, api2] = await Promise.all([startLegacySandbox(), startApi2Sandbox()]);
  return {
    info: { legacyOrigin: legacy.origin, api2Origin: api2.origin, caFile: api2.caFile },
    close: async () => void (await Promise.all([legacy.close(), api2.close()])),
  };
});

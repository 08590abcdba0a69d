/**
 * Node-only: the sandbox backends of a sandbox run (`npm start`, `--api2`, `--demo`,
 * `--sandbox --config FILE`): the legacy backend (http) and the api2 backend (https, a certificate
 * made at start) on loopback, over one dataset, on SANDBOX_LEGACY_PORT and SANDBOX_API2_PORT (else
 * free ports), the api2 fault of SANDBOX_API2_FAULT set, and the controls the gateway's admin
 * listener serves for them (sandbox-admin.ts, the console panel of sandbox-console.ts).
 */
import { faultFromText, FAULT_ENVIRONMENT } from './api2-fault-setting.js';
import { Api2Faults } from './api2-faults.js';
import { startApi2Sandbox } from './api2-start.js';
import type { StartedApi2Sandbox } from './api2-start.js';
import { sandboxAdmin } from './sandbox-admin.js';
import type { SandboxAdmin } from './sandbox-admin.js';
import type { SandboxBackends } from './sandbox-config.js';
import { renderFaultPanel } from './sandbox-console.js';
import { createSandboxStores } from './shared-stores.js';
import { startLegacySandbox } from './start.js';
import type { StartedLegacySandbox } from './start.js';

export interface RunningSandbox {
  readonly backends: SandboxBackends;
  readonly legacy: StartedLegacySandbox;
  readonly api2: StartedApi2Sandbox;
  readonly faults: Api2Faults;
  readonly admin: SandboxAdmin & { readonly consolePanel: () => string };
  close(): Promise<void>;
}

export type SandboxStart = { readonly ok: true; readonly sandbox: RunningSandbox } | { readonly ok: false; readonly errors: string[] };

function portOf(env: Readonly<Record<string, string | undefined>>, name: string, errors: string[]): number {
  const value = env[name];
  if (!value) return 0;
  if (/^\d+$/.test(value.trim()) && Number(value) <= 65_535) return Number(value);
  errors.push(`${name}: a port number from 0 to 65535, got ${JSON.stringify(value)}`);
  return 0;
}

export async function startSandbox(env: Readonly<Record<string, string | undefined>>): Promise<SandboxStart> {
  const errors: string[] = [];
  const legacyPort = portOf(env, 'SANDBOX_LEGACY_PORT', errors);
  const api2Port = portOf(env, 'SANDBOX_API2_PORT', errors);
  const faults = new Api2Faults();
  const faultText = env[FAULT_ENVIRONMENT];
  if (faultText) {
    const setting = faultFromText(faultText);
    if (setting.ok) faults.set(setting.fault);
    else errors.push(...setting.errors);
  }
  if (errors.length > 0) return { ok: false, errors };
  // One dataset behind both sandbox interfaces: a write through either is read through the other.
  const stores = createSandboxStores();
  const legacy = await startLegacySandbox({ port: legacyPort, store: stores.legacy });
  const api2 = await startApi2Sandbox({ port: api2Port, store: stores.api2, faults }).catch(async (error: unknown) => {
    await legacy.close();
    throw error;
  });
  return {
    ok: true,
    sandbox: {
      backends: { legacyOrigin: legacy.origin, api2Origin: api2.origin, api2CaFile: api2.caFile },
      legacy,
      api2,
      faults,
      admin: { ...sandboxAdmin(faults), consolePanel: () => renderFaultPanel(faults) },
      close: async () => {
        await Promise.all([legacy.close(), api2.close()]);
      },
    },
  };
}

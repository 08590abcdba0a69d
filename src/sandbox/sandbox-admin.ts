/**
 * The sandbox's controls on the gateway's admin listener (sandbox mode only; same protection as
 * every admin view). docs/sandbox-and-demo.md:
 *
 *   GET  /admin/sandbox/api2-fault          the fault in force, answers eligible and faulted since it was set
 *   POST /admin/sandbox/api2-fault          sets one (JSON or form fields: kind, fraction or percent, field, status, delayMs, path)
 *   POST /admin/sandbox/api2-fault/clear    back to normal
 *
 * A plain HTML form's POST (the console's, sandbox-console.ts) is answered 303 back to `/admin`.
 */
import type { AdminAction, AdminView } from '../gateway/admin-port.js';
import { describeFault, faultFromFields } from './api2-fault-setting.js';
import type { Api2Faults } from './api2-faults.js';

export const FAULT_PATH = '/admin/sandbox/api2-fault';
export const FAULT_CLEAR_PATH = `${FAULT_PATH}/clear`;

export interface SandboxAdmin {
  readonly views: readonly AdminView[];
  readonly actions: readonly AdminAction[];
}

export function sandboxAdmin(faults: Api2Faults): SandboxAdmin {
  const view = (): object => {
    const state = faults.state();
    return { ...state, description: describeFault(state.fault) };
  };
  return {
    views: [{ path: FAULT_PATH, render: view }],
    actions: [
      {
        path: FAULT_PATH,
        returnTo: '/admin',
        async handle(_params, fields) {
          const setting = faultFromFields(fields);
          if (!setting.ok) return { status: 400, body: { errors: setting.errors } };
          faults.set(setting.fault);
          return { status: 200, body: view() };
        },
      },
      {
        path: FAULT_CLEAR_PATH,
        returnTo: '/admin',
        async handle() {
          faults.clear();
          return { status: 200, body: view() };
        },
      },
    ],
  };
}

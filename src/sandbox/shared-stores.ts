/**
 * One dataset behind both sandbox interfaces: a legacy store and an api2 store over the same
 * SandboxData (sandbox-data.ts), so that any mix of legacy and api2 routes reads what was written.
 */
import { Api2Store } from './api2-store.js';
import type { SandboxDataset } from './dataset/dataset.js';
import { LegacyStore } from './legacy-store.js';
import { SandboxData } from './dataset/sandbox-data.js';

export interface SandboxStores {
  readonly data: SandboxData;
  readonly legacy: LegacyStore;
  readonly api2: Api2Store;
}

export function createSandboxStores(options: { readonly dataset?: SandboxDataset; readonly now?: () => number } = {}): SandboxStores {
  const data = new SandboxData(options.dataset);
  const clock = options.now ? { now: options.now } : {};
  return { data, legacy: new LegacyStore({ data, ...clock }), api2: new Api2Store({ data, ...clock }) };
}

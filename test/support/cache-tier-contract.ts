/**
 * The promises of the shared cache tier port (src/cache/tier.ts), stated once; every tier runs
 * them: `describeCacheTierContract(name, capabilities, start)`. What a tier legitimately does not
 * do is a declared capability, and the contract checks the declared behaviour instead (the null
 * tier stores nothing: a write is then never read back). See docs/architecture.md, "Ports".
 */
import { describe } from 'vitest';
import type { TierCapabilities, TierFleet } from './cache-tier-capabilities.js';
import { pagePromises } from './cache-tier-contract-pages.js';
import { replicaPromises } from './cache-tier-contract-replicas.js';
import { closedAfterEachTest } from './cleanup.js';

export type { TierCapabilities, TierFleet } from './cache-tier-capabilities.js';

export function describeCacheTierContract(name: string, can: TierCapabilities, start: () => Promise<TierFleet>): void {
  describe(`${name} keeps the cache tier contract`, () => {
    const cleanup = closedAfterEachTest();
    const fleet = async (): Promise<TierFleet> => {
      const started = await start();
      cleanup.push(() => started.close());
      return started;
    };
    pagePromises(can, fleet);
    replicaPromises(can, fleet);
  });
}

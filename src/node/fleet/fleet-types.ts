/**
 * Node-only: what src/node/fleet/fleet.ts hands the server, and what its Redis side
 * (redis-fleet.ts) builds (their own module, so neither imports the other for it).
 */
import type { MappingMemory } from '../../../mappings/types.js';
import type { CounterStore } from '../../migration/live-counters.js';
import type { CacheTier } from '../../cache/tier.js';

export interface FleetStatus {
  readonly tier: string;
  readonly up: boolean;
  readonly errors: number;
  readonly transitions: number;
  /** Writes answered without Redis taking their invalidation in time (out, slow or failing). */
  readonly unacknowledgedInvalidations: number;
}

export interface Fleet {
  /** Redis with `cache.redis`; in a cluster worker without it, the other workers (cluster-tier.ts); else none. */
  readonly tier: CacheTier | undefined;
  readonly memory: MappingMemory | undefined;
  /** The key the replicas hash api keys and credentials with. */
  readonly hashKey: string | undefined;
  /** Where the replicas sum their live migration counters (src/migration/live-counters.ts). */
  counterStore(bucketMs: number): CounterStore | undefined;
  /** Why this replica should get no traffic now (a required Redis out), or null. */
  notReadyReason(): string | null;
  status(): FleetStatus | undefined;
  readonly notes: readonly string[];
  close(): Promise<void>;
}

/**
 * One line about the shared state: `cache-tier` (the tier went up or down, with the reason) or
 * `cache-invalidation` (a write was answered before Redis took its invalidation).
 */
export type FleetLog = (msg: 'cache-tier' | 'cache-invalidation', level: 'info' | 'warn', fields: Readonly<Record<string, string>>) => void;

/**
 * Where rollout states and events are kept. Per process: in memory (lost at restart), or in a
 * state file (node/file-store.ts). A fleet: in Redis (node/redis-store.ts), where one replica at
 * a time holds the evaluation lease. Every write is a compare-and-set on the state's version, so
 * an operator's action and the controller's move never overwrite each other.
 */
import type { OperationId } from '../../catalogue/operations.js';
import type { EventWrite } from './repeats.js';
import type { GateResult, RolloutEvent, RolloutState } from './state.js';

export interface StoredState {
  readonly state: RolloutState;
  /** +1 per write. */
  readonly version: number;
}

/** The lease holder's last evaluation per operation: the gates judged, and a step that holds nobody (runner.ts). */
export type Evaluation = Record<string, { readonly time: string; readonly gates: readonly GateResult[]; readonly holdsNobody: string | null }>;

export interface RolloutStore {
  /** memory: this process, lost at restart; file: this process, kept; redis: the fleet's. */
  readonly kind: 'memory' | 'file' | 'redis';
  /** The stored states of these operations. Rejects when the store is out. */
  load(operations: readonly OperationId[]): Promise<Map<OperationId, StoredState>>;
  /** Stores `state` if the stored version is still `expected` (null: none stored): its new version, or false when it moved. */
  put(state: RolloutState, expected: number | null): Promise<number | false>;
  /**
   * Puts back a state this replica last read, which the store lost (Redis restarted empty, a key
   * evicted or deleted), unless it holds the same rollout at that version or newer, or an older
   * rollout of the plan (`mayRestore`). Compare-and-set: replicas that race agree on the newest.
   */
  restore(stored: StoredState): Promise<boolean>;
  remove(operation: OperationId): Promise<void>;
  /** Appends events, keeping the last `keep`; an event that `replaces` a repeated failure takes its place (removed if still held) as the newest (repeats.ts). */
  addEvents(writes: ReadonlyArray<EventWrite<RolloutEvent>>, keep: number): Promise<void>;
  /** The last `limit` events, oldest first. */
  events(limit: number): Promise<RolloutEvent[]>;
  /** Puts back the history a replica holds (oldest first) if the store's is empty (lost); true when put back. */
  restoreEvents(history: readonly RolloutEvent[]): Promise<boolean>;
  /** Keeps the lease holder's last evaluation, for the replicas without the lease to show. */
  setEvaluation(evaluation: Evaluation): Promise<void>;
  evaluation(): Promise<Evaluation>;
  /** True while this process may evaluate (per process: always; Redis: the lease, taken or renewed for `ttlMs`). */
  lead(ttlMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Whether `held` (what a replica last read) is to be put back over `found` (what the store holds now, if anything). */
export function mayRestore(held: StoredState, found: StoredState | undefined): boolean {
  if (found === undefined || found.state.born > held.state.born) return true;
  return found.state.born === held.state.born && found.version < held.version;
}

/** A stored state as read back, with the fields a state written by an older gateway lacks. */
export function readState(state: RolloutState): RolloutState {
  return { ...state, born: state.born ?? 0, pageEpoch: state.pageEpoch ?? 0 };
}

/** The states and events of one process, in memory; `persist` is told after each change (the state file). */
export function createMemoryStore(initial?: { states: Record<string, StoredState>; events: RolloutEvent[] }, persist?: (snapshot: { states: Record<string, StoredState>; events: RolloutEvent[] }) => Promise<void>): RolloutStore {
  const states = new Map<OperationId, StoredState>(Object.entries(initial?.states ?? {}) as Array<[OperationId, StoredState]>);
  let events: RolloutEvent[] = [...(initial?.events ?? [])];
  let evaluation: Evaluation = {};
  const save = async (): Promise<void> => {
    await persist?.({ states: Object.fromEntries(states), events });
  };
  return {
    kind: persist ? 'file' : 'memory',
    async load(operations) {
      return new Map(operations.flatMap((id) => {
        const stored = states.get(id);
        return stored ? [[id, stored] as const] : [];
      }));
    },
    async put(state, expected) {
      const current = states.get(state.operation);
      if ((current?.version ?? null) !== expected) return false;
      const version = (current?.version ?? 0) + 1;
      states.set(state.operation, { state, version });
      await save();
      return version;
    },
    async restore(held) {
      if (!mayRestore(held, states.get(held.state.operation))) return false;
      states.set(held.state.operation, held);
      await save();
      return true;
    },
    async remove(operation) {
      if (states.delete(operation)) await save();
    },
    async addEvents(writes, keep) {
      for (const { event, replaces } of writes) {
        const held = replaces === null ? -1 : events.map((e) => JSON.stringify(e)).lastIndexOf(JSON.stringify(replaces));
        events = [...events.filter((_, i) => i !== held), event];
      }
      events = events.slice(-keep);
      await save();
    },
    async events(limit) {
      return events.slice(-limit);
    },
    async restoreEvents(history) {
      if (events.length > 0) return false;
      events = [...history];
      await save();
      return true;
    },
    async setEvaluation(latest) {
      evaluation = latest;
    },
    evaluation: async () => evaluation,
    lead: async () => true,
    close: async () => undefined,
  };
}

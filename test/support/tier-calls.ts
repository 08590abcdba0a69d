/**
 * Drives a CacheTier that lives in another runtime (a workerd isolate, a cluster worker) as if it
 * were here: `remoteTier` is a CacheTier that sends each call, in order, to `answerTierCall` beside
 * the real tier, which answers with the result and the invalidations its listeners heard since.
 * Entries travel as JSON (the body base64). No Node-only import: it is bundled into workerd.
 * Leases do not travel: the remote tiers driven this way grant none.
 */
import type { CacheTier, LockOutcome, TierRead } from '../../src/cache/tier.js';
import type { TierEntry } from '../../src/cache/types.js';

type Op = 'read' | 'write' | 'lock' | 'locked' | 'remember' | 'invalidateAll' | 'invalidateGroup' | 'listen' | 'unlisten';
export interface TierCall {
  readonly tier: string;
  readonly op: Op;
  readonly args: readonly unknown[];
}
export interface Heard {
  readonly listener: number;
  readonly group: string | null;
}
export interface TierReply {
  readonly result: unknown;
  readonly heard: readonly Heard[];
}
interface WireEntry {
  readonly answer: { status: number; headers: Record<string, string>; body: string };
  readonly storedAt: number;
  readonly policy: TierEntry['policy'];
}

const toWire = (entry: TierEntry): WireEntry => ({
  answer: { status: entry.answer.status, headers: { ...entry.answer.headers }, body: btoa(String.fromCharCode(...entry.answer.body)) },
  storedAt: entry.storedAt,
  policy: entry.policy,
});
const fromWire = (wire: WireEntry): TierEntry => ({
  answer: { status: wire.answer.status, headers: wire.answer.headers, setCookie: [], body: Uint8Array.from(atob(wire.answer.body), (c) => c.charCodeAt(0)) },
  storedAt: wire.storedAt,
  policy: wire.policy,
});

/**
 * Beside the real tiers: answers calls. What their listeners are told goes to `tell` at once when
 * given (a channel that can push), else with the next reply.
 */
export function tierCallAnswerer(tiers: Readonly<Record<string, CacheTier>>, tell?: (heard: Heard) => void): (call: TierCall) => Promise<TierReply> {
  const heard: Heard[] = [];
  const detachers = new Map<number, () => void>();
  const told = tell ?? ((one: Heard) => void heard.push(one));
  return async (call) => ({ result: await answer(tiers, call, told, detachers), heard: heard.splice(0) });
}

async function answer(tiers: Readonly<Record<string, CacheTier>>, call: TierCall, tell: (heard: Heard) => void, detachers: Map<number, () => void>): Promise<unknown> {
  const tier = tiers[call.tier];
  if (!tier) throw new Error(`no tier ${call.tier}`);
  const [a, b, c] = call.args;
  let result: unknown;
  if (call.op === 'read') {
    const read = await tier.read(a as string, b as string | null, c as string | null);
    result = read && { trusted: read.trusted, stamp: read.stamp, entry: read.entry && toWire(read.entry) };
  } else if (call.op === 'write') tier.write(a as string, b as string | null, fromWire(c as WireEntry), call.args[3] as string, undefined);
  else if (call.op === 'lock') {
    const outcome = await tier.lock(a as string);
    result = typeof outcome === 'object' ? { fence: outcome.fence } : outcome;
  } else if (call.op === 'locked') result = await tier.locked(a as string);
  else if (call.op === 'remember') tier.remember(a as string, b as number);
  else if (call.op === 'invalidateAll') result = await tier.invalidateAll();
  else if (call.op === 'invalidateGroup') result = await tier.invalidateGroup(a as string);
  else if (call.op === 'listen') detachers.set(a as number, tier.onInvalidate((group) => tell({ listener: a as number, group })));
  else if (call.op === 'unlisten') detachers.get(a as number)?.();
  return result;
}

let nextListener = 0;

/** Here: a CacheTier whose calls run, one after another, on the remote tier `name`; `lockTtlMs` is the remote one's. */
export function remoteTier(name: string, lockTtlMs: number, send: (call: TierCall) => Promise<TierReply>): { tier: CacheTier; hear: (heard: readonly Heard[]) => void } {
  const listeners = new Map<number, (group: string | null) => void>();
  const hear = (heard: readonly Heard[]): void => {
    for (const { listener, group } of heard) listeners.get(listener)?.(group);
  };
  let queue: Promise<unknown> = Promise.resolve();
  const call = <T>(op: Op, ...args: unknown[]): Promise<T> => {
    const done = queue.then(() => send({ tier: name, op, args })).then((reply) => {
      hear(reply.heard);
      return reply.result as T;
    });
    queue = done.catch(() => undefined);
    return done;
  };
  const tier: CacheTier = {
    lockTtlMs,
    read: async (key, group, fact) => {
      const read = await call<(Omit<TierRead, 'entry'> & { entry?: WireEntry }) | undefined>('read', key, group, fact);
      return read && { trusted: read.trusted, stamp: read.stamp, entry: read.entry && fromWire(read.entry) };
    },
    write: (key, group, entry, stamp, lease) => {
      if (lease) throw new Error('leases do not travel to a remote tier');
      void call('write', key, group, toWire(entry), stamp);
    },
    lock: async (flightKey) => {
      const outcome = await call<'held' | 'out' | { fence: string }>('lock', flightKey);
      if (typeof outcome !== 'object') return outcome;
      return { fence: outcome.fence, release: () => undefined } satisfies LockOutcome;
    },
    locked: (flightKey) => call<boolean>('locked', flightKey),
    remember: (fact, ttlMs) => void call('remember', fact, ttlMs),
    invalidateAll: () => call<boolean>('invalidateAll'),
    invalidateGroup: (group) => call<boolean>('invalidateGroup', group),
    onInvalidate: (listener) => {
      const id = ++nextListener;
      listeners.set(id, listener);
      void call('listen', id);
      // Kept here: a remote listener that hears on after its detach must reach the test.
      return () => void call('unlisten', id);
    },
  };
  return { tier, hear };
}

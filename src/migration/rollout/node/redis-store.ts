/**
 * Node-only: the rollout state of a fleet in Redis (`cache.redis`), with its own connection,
 * failing fast as the cache tier's does (no offline queue, the tier's command timeout): a Redis
 * that is out makes every call reject, and the runner then freezes every step where it is.
 *
 * Keys (p = `<keyPrefix>v1:rollout:`):
 *   p s:<operation>   hash { v: version, s: state JSON, b: the rollout's birth }, written by
 *                     compare-and-set (PUT_SCRIPT), put back after a loss by RESTORE_SCRIPT
 * None of these keys but the lease has a TTL: under `volatile-lru` (deploy/k8s/redis.yaml) Redis
 * never evicts them (docs/fleet.md).
 *   p events          list of event JSON, newest first, trimmed to `rollout.keepEvents`; a repeated
 *                     failure replaces the event it repeats (ADD_EVENTS_SCRIPT, repeats.ts); a lost
 *                     list is put back from a replica's copy (RESTORE_EVENTS_SCRIPT)
 *   p lease           the evaluation lease: a replica's token, SET NX PX, renewed by its holder
 *   p evaluation      the lease holder's last evaluation (JSON), for the other replicas' views
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { OperationId } from '../../../catalogue/operations.js';
import type { RedisTierConfig } from '../../../config/fleet.js';
import type { RolloutEvent, RolloutState } from '../state.js';
import { readState } from '../store.js';
import type { Evaluation, RolloutStore, StoredState } from '../store.js';

/** KEYS: state. ARGV: expected version ('' when none), state JSON, birth. Returns the new version, or -1 when it moved. */
const PUT_SCRIPT = `local v = redis.call('HGET', KEYS[1], 'v')
if (v or '') ~= ARGV[1] then return -1 end
local next = (tonumber(v) or 0) + 1
redis.call('HSET', KEYS[1], 'v', next, 's', ARGV[2], 'b', ARGV[3])
return next`;

/** KEYS: state. ARGV: version, state JSON, birth. Puts them back unless held at that version or newer, or by an older rollout (store.ts mayRestore). 1 when put back. */
const RESTORE_SCRIPT = `local v = redis.call('HGET', KEYS[1], 'v')
if v then
  local b = tonumber(redis.call('HGET', KEYS[1], 'b') or '0')
  if b < tonumber(ARGV[3]) then return 0 end
  if b == tonumber(ARGV[3]) and tonumber(v) >= tonumber(ARGV[1]) then return 0 end
end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 's', ARGV[2], 'b', ARGV[3])
return 1`;

/**
 * KEYS: events. ARGV: keep, then per event oldest first the JSON of the event it replaces ('' for
 * none) and its own: the replaced one is removed (the newest equal, if still held), the event
 * pushed as the newest; the list trimmed to `keep`.
 */
const ADD_EVENTS_SCRIPT = `for i = 2, #ARGV, 2 do
  if ARGV[i] ~= '' then redis.call('LREM', KEYS[1], 1, ARGV[i]) end
  redis.call('LPUSH', KEYS[1], ARGV[i + 1])
end
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[1]) - 1)
return 1`;

/** KEYS: events. ARGV: events JSON, newest first. Puts them back only into an empty (lost) list; 1 when put back. */
const RESTORE_EVENTS_SCRIPT = `if redis.call('LLEN', KEYS[1]) > 0 then return 0 end
redis.call('RPUSH', KEYS[1], unpack(ARGV))
return 1`;

/** KEYS: lease. ARGV: token, ttl ms. 1 while the lease is ours (renewed), 0 when another replica holds it. */
const LEAD_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0`;

/** KEYS: lease. ARGV: token. Lets the lease go if it is ours (a stopping replica hands over at once). */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

type Scripted = Redis & {
  rolloutPut(key: string, expected: string, state: string, born: number): Promise<number>;
  rolloutRestore(key: string, version: number, state: string, born: number): Promise<number>;
  rolloutAddEvents(key: string, keep: number, ...pairs: string[]): Promise<number>;
  rolloutRestoreEvents(key: string, ...events: string[]): Promise<number>;
  rolloutLead(key: string, token: string, ttl: number): Promise<number>;
  rolloutRelease(key: string, token: string): Promise<number>;
};

/** Resolves once connected, or after the connect timeout (a Redis out at start: every route stays on legacy until it answers). */
export async function createRedisStore(config: RedisTierConfig): Promise<RolloutStore> {
  const redis = new Redis(config.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: config.commandTimeoutMs,
    connectTimeout: config.connectTimeoutMs,
    retryStrategy: () => config.retryMs,
  }) as Scripted;
  redis.on('error', () => undefined); // a call that fails freezes the rollout; the runner says so once
  redis.defineCommand('rolloutPut', { numberOfKeys: 1, lua: PUT_SCRIPT });
  redis.defineCommand('rolloutRestore', { numberOfKeys: 1, lua: RESTORE_SCRIPT });
  redis.defineCommand('rolloutAddEvents', { numberOfKeys: 1, lua: ADD_EVENTS_SCRIPT });
  redis.defineCommand('rolloutRestoreEvents', { numberOfKeys: 1, lua: RESTORE_EVENTS_SCRIPT });
  redis.defineCommand('rolloutLead', { numberOfKeys: 1, lua: LEAD_SCRIPT });
  redis.defineCommand('rolloutRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  const p = `${config.keyPrefix}v1:rollout:`;
  const token = randomUUID();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, config.connectTimeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    kind: 'redis',
    async load(operations) {
      const read = await Promise.all(operations.map((id) => redis.hmget(`${p}s:${id}`, 'v', 's')));
      const states = new Map<OperationId, StoredState>();
      operations.forEach((id, i) => {
        const [version, json] = read[i] ?? [];
        if (version && json) states.set(id, { version: Number(version), state: readState(JSON.parse(json) as RolloutState) });
      });
      return states;
    },
    async put(state, expected) {
      const version = await redis.rolloutPut(`${p}s:${state.operation}`, expected === null ? '' : String(expected), JSON.stringify(state), state.born);
      return version < 0 ? false : version;
    },
    async restore({ state, version }) {
      return (await redis.rolloutRestore(`${p}s:${state.operation}`, version, JSON.stringify(state), state.born)) === 1;
    },
    async remove(operation) {
      await redis.del(`${p}s:${operation}`);
    },
    async addEvents(writes, keep) {
      if (writes.length === 0) return;
      await redis.rolloutAddEvents(`${p}events`, keep, ...writes.flatMap(({ event, replaces }) => [replaces === null ? '' : JSON.stringify(replaces), JSON.stringify(event)]));
    },
    async events(limit) {
      const listed = await redis.lrange(`${p}events`, 0, limit - 1);
      return listed.map((line) => JSON.parse(line) as RolloutEvent).reverse();
    },
    async restoreEvents(history) {
      if (history.length === 0) return false;
      return (await redis.rolloutRestoreEvents(`${p}events`, ...history.map((e) => JSON.stringify(e)).reverse())) === 1;
    },
    async setEvaluation(evaluation) {
      await redis.set(`${p}evaluation`, JSON.stringify(evaluation));
    },
    async evaluation() {
      const json = await redis.get(`${p}evaluation`);
      return json ? (JSON.parse(json) as Evaluation) : {};
    },
    async lead(ttlMs) {
      return (await redis.rolloutLead(`${p}lease`, token, ttlMs)) === 1;
    },
    async close() {
      await redis.rolloutRelease(`${p}lease`, token).catch(() => undefined);
      redis.disconnect();
    },
  };
}

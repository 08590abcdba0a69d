/**
 * A Worker (bundled and run in workerd by the edge cache tier contract test) that holds real
 * CacheApiTier replicas over workerd's own `caches.default`, and one over a cache that refuses
 * everything (out), and runs the calls POSTed to it (test/support/tier-calls.ts). A call answers
 * once the writes it started are done, as the Worker hands them to `ctx.waitUntil`.
 */
import { CacheApiTier } from '../../src/edge/cache-api-tier.js';
import type { EdgeCache } from '../../src/edge/cache-api-tier.js';
import { tierCallAnswerer } from './tier-calls.js';
import type { TierCall, TierReply } from './tier-calls.js';

const refusing: EdgeCache = { match: () => Promise.reject(new Error('cache out')), put: () => Promise.reject(new Error('cache out')) };
/** Per fleet (the tier's name is `<fleet>:a`, `:b` or `:out`): fresh replicas and listeners. */
const fleets = new Map<string, { tiers: Record<string, CacheApiTier>; answer: (call: TierCall) => Promise<TierReply> }>();

function fleetOf(name: string) {
  const id = name.slice(0, name.lastIndexOf(':'));
  let fleet = fleets.get(id);
  if (!fleet) {
    const shared = (globalThis as unknown as { caches: { default: EdgeCache } }).caches.default;
    const tiers = { [`${id}:a`]: new CacheApiTier(shared), [`${id}:b`]: new CacheApiTier(shared), [`${id}:out`]: new CacheApiTier(refusing) };
    fleets.set(id, (fleet = { tiers, answer: tierCallAnswerer(tiers) }));
  }
  return fleet;
}

export default {
  async fetch(request: Request): Promise<Response> {
    const call = (await request.json()) as TierCall;
    const fleet = fleetOf(call.tier);
    const reply = await fleet.answer(call);
    await Promise.all(Object.values(fleet.tiers).map((tier) => tier.settled()));
    return Response.json(reply);
  },
};

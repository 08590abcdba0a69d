/**
 * The judgements of this gateway now: reads the live counters since the config version in force
 * came into force (a config fix starts the evidence again; at most the counters' 15 minutes) and
 * the rollout snapshot, and judges (live.ts). One source for the console, /admin/rollout,
 * /admin/traffic and the metrics.
 */
import type { GatewayConfig } from '../../config/schema.js';
import type { LiveCounters, LiveWindow } from '../live-counters.js';
import type { RolloutSnapshot } from '../rollout/runner.js';
import { judgeLive } from './live.js';
import type { Judgement } from './types.js';

export interface ActiveConfig {
  readonly config: GatewayConfig;
  readonly configHash: string;
  /** ISO time this generation was loaded. */
  readonly loadedAt: string;
  /** 1 for the config the process started with (+1 per reload): nothing was counted under another before it. */
  readonly version?: number;
}

export interface JudgedNow {
  readonly judgements: readonly Judgement[];
  readonly window: LiveWindow;
  readonly configHash: string;
  /** Epoch ms the config version in force came into force (its evidence starts here). */
  readonly configSince: number;
}

export type JudgementSource = () => Promise<JudgedNow | undefined>;

export function judgementSource(live: LiveCounters, active: () => ActiveConfig | undefined, rollout: () => RolloutSnapshot | undefined, now: () => number = Date.now): JudgementSource {
  // The first time each config hash was seen in force: a reload of the same file keeps its evidence.
  let current: { hash: string; since: number } | undefined;
  return async () => {
    const generation = active();
    if (!generation) return undefined;
    if (current?.hash !== generation.configHash) current = { hash: generation.configHash, since: generation.version === 1 ? 0 : Date.parse(generation.loadedAt) || now() };
    // Whole buckets after the config came into force: nothing counted under the one before it.
    const from = Math.ceil(current.since / live.bucketMs) * live.bucketMs;
    const window = await live.window(Math.max(from, now() - live.spanMs));
    return { judgements: judgeLive({ config: generation.config, window, rollout: rollout() }), window, configHash: generation.configHash, configSince: current.since };
  };
}

/**
 * The judgements of a running gateway, from what it holds: the config in force, the live
 * counters' window since that config version was loaded, and the rollout runner's snapshot (its
 * states, its decisions and its last gate evaluation). Pure; the console, /admin/rollout,
 * /admin/traffic and the metrics all call this one function (src/node/judgements.ts reads the inputs).
 */
import { OPERATIONS } from '../../catalogue/operations.js';
import type { GatewayConfig, RouteMode } from '../../config/schema.js';
import type { WindowEvidence } from '../rollout/gates.js';
import type { RolloutSnapshot } from '../rollout/runner.js';
import type { LiveWindow } from '../live-counters.js';
import { judgeOperation } from './judge.js';
import type { Judgement, RolloutFacts } from './types.js';

export interface LiveJudgementInputs {
  readonly config: GatewayConfig;
  /** The live counters since the config version in force was loaded (at most their span). */
  readonly window: LiveWindow;
  readonly rollout: RolloutSnapshot | undefined;
}

/** Every catalogued operation, in catalogue order. */
export function judgeLive({ config, window, rollout }: LiveJudgementInputs): Judgement[] {
  return OPERATIONS.map((op) => {
    const route = config.routes[op.id];
    const view = rollout?.operations.find((v) => v.operation === op.id);
    const counts = window.operations.get(op.id);
    const evidence: WindowEvidence = { counts: counts ?? EMPTY.counts, api2BreakerOpens: window.api2BreakerOpens };
    const facts: RolloutFacts | undefined =
      view && rollout && route?.rollout
        ? {
            at: view.state?.at ?? 'legacy',
            status: view.state?.status ?? 'running',
            reason: view.state?.reason ?? '',
            frozen: rollout.frozen,
            decisions: rollout.events.filter((e) => e.operation === op.id),
          }
        : undefined;
    const mode: RouteMode = view && facts ? view.exposure.mode : (route?.mode ?? 'legacy');
    return judgeOperation({ operation: op.id, mode, write: !op.safe, plan: route?.rollout, rollout: facts, evidence, judged: view?.judged?.gates });
  });
}

const ZERO = { requests: 0, status5xx: 0, p95Ms: null };
const EMPTY: WindowEvidence = { counts: { legacy: ZERO, api2: ZERO, fallbacks: 0, shadow: { compared: 0, agreed: 0 } }, api2BreakerOpens: 0 };

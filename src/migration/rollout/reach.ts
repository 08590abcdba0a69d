/**
 * Which percentage steps of the plans a known set of clients cannot reach: the canary split is
 * sticky per api key and user (src/traffic/canary.ts), so a step whose share holds none of them
 * exposes nobody and, in front of those clients alone (the sandbox's), waits for ever.
 * `--check-config` warns with it; the running gateway says the same from its traffic (steps.ts holdsNobody).
 */
import type { GatewayConfig } from '../../config/schema.js';
import { canaryBucket } from '../../traffic/canary.js';

export interface KnownClient {
  readonly apiKey: string;
  readonly user: string | null;
}

export function unreachedSteps(config: GatewayConfig, clients: readonly KnownClient[], whose: string): string[] {
  const lowest = Math.min(...clients.map((client) => canaryBucket(client.apiKey, client.user)));
  return Object.entries(config.routes).flatMap(([id, route]) =>
    (route.rollout?.steps ?? []).flatMap((step, index) =>
      typeof step === 'number' && step < 100 && Math.round(step * 100) <= lowest
        ? [`routes["${id}"].rollout.steps[${index}]: the ${step} % step holds none of the ${clients.length} ${whose} clients (the lowest canary bucket is ${lowest} of 10,000, a share of ${Math.floor(lowest / 100) + 1} % at least): it would wait for ever in front of them alone`]
        : [],
    ),
  );
}

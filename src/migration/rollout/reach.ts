/**
 * Which percentage steps of the plans a known set of clients cannot reach: the canary split is
 * sticky per api key and user (src/traffic/canary.ts), so a step whose share holds none of them
 * exposes nobody and, in front of those clients alone (the sandbox's), waits for ever.
 * `--check-config` warns with it; the running gateway says the same from its traffic (steps.ts holdsNobody).
 * It also warns of a client a plan names that no label or hash can match.
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

const CLIENT_HASH = /^[0-9a-f]{16}$/;

/** Every client a plan names (a cohort step's, a held one), with where it is named. */
export function namedClients(config: GatewayConfig): Array<{ readonly path: string; readonly name: string }> {
  return Object.entries(config.routes).flatMap(([id, route]) => {
    const plan = route.rollout;
    if (!plan) return [];
    const inSteps = plan.steps.flatMap((step, index) => (typeof step === 'object' ? step.clients.map((name) => ({ path: `routes["${id}"].rollout.steps[${index}].clients`, name })) : []));
    return [...inSteps, ...plan.hold.map((name) => ({ path: `routes["${id}"].rollout.hold`, name }))];
  });
}

/** The names a plan gives that are neither a configured client label nor a client hash: they match no client. */
export function unknownClients(config: GatewayConfig): string[] {
  const labels = new Set(Object.values(config.observability.clientLabels));
  return namedClients(config)
    .filter(({ name }) => !labels.has(name) && !CLIENT_HASH.test(name))
    .map(({ path, name }) => `${path}: names "${name}", neither a label of observability.clientLabels nor a 16-hex-digit client hash: it matches no client yet`);
}

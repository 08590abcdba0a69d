/**
 * A node:cluster worker (forked by the cluster tier contract test, which acts as the primary) that
 * holds the real ClusterTier, as a gateway worker does, and runs the calls the primary sends it
 * (support/tier-calls.ts); what its listeners are told goes to the primary at once.
 */
import { ClusterTier } from '../../src/node/fleet/cluster-tier.js';
import { tierCallAnswerer } from './tier-calls.js';
import type { TierCall } from './tier-calls.js';

const answer = tierCallAnswerer({ tier: new ClusterTier(() => undefined) }, (heard) => process.send?.({ type: 'contract:heard', heard }));
process.on('message', (message: { type?: string; id?: number; call?: TierCall } | undefined) => {
  if (message?.type !== 'contract:call' || !message.call) return;
  void answer(message.call).then((reply) => process.send?.({ type: 'contract:reply', id: message.id, reply }));
});
process.send?.({ type: 'contract:ready' });

/**
 * The entry of a cluster worker process (node:cluster forks it: src/node/cluster.ts); what it does
 * is src/node/cluster-worker.ts.
 */
import { runWorker } from './cluster-worker.js';

runWorker();

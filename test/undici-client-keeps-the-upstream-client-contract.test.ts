/**
 * The Node upstream client (src/upstream/undici-client.ts: an undici Pool, `dispatch`) runs the
 * upstream client contract (test/support/upstream-client-contract.ts) against a real HTTP server
 * on 127.0.0.1. It adds only the transport's own headers and passes accept-encoding as given
 * (undici decodes nothing: the encoded bytes pass through).
 */
import { createUndiciUpstream } from '../src/upstream/undici-client.js';
import { describeUpstreamClientContract, runInProcess } from './support/upstream-client-contract.js';

const run = runInProcess((baseUrl, maxResponseBytes) => createUndiciUpstream({ name: 'legacy', baseUrl, connections: 2, keepAliveTimeoutMs: 1_000, maxResponseBytes }));

describeUpstreamClientContract('the undici client', { addsHeaders: ['host', 'connection', 'content-length'], acceptEncoding: 'as-given', refused: { failure: 'connect', sent: false } }, run);

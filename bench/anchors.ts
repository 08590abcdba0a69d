/**
 * The anchors of the benchmark, started beside the gateways against the same canned upstream:
 *
 * - floor / floor-log: Hono + @hono/node-server + an undici Pool.dispatch handler, without and with
 *   one usage-log line (bench/floor-child.ts), the floor of our own stack;
 * - floor-api2: the same floor forwarding over https to the canned api2 page (same TLS, same bytes
 *   as the gateway's api2 call), answering it unchanged: what the api2-mapped search is judged against;
 * - fastify: @fastify/http-proxy, the peer a Node team would pick instead (bench/fastify-child.ts);
 * - hono / hono-log: bare Hono answering the page from memory, without and with one log line;
 * - nginx: proxy_pass, when nginx is on PATH (skipped with a note otherwise).
 *
 * Every Node anchor runs with the same Node flags as the gateways (`--trace-gc-nvp`, read for the
 * promoted bytes).
 */
import { forkChild } from './children.js';
import type { Child } from './children.js';
import { findNginx, startNginx } from './nginx.js';
import type { UpstreamInfo } from './children.js';
import type { TargetId } from './scenarios.js';

export interface Anchors {
  readonly children: ReadonlyMap<TargetId, Child>;
  readonly notes: readonly string[];
}

export async function startAnchors(upstreams: UpstreamInfo, track: (child: Child) => void): Promise<Anchors> {
  const upstreamOrigin = upstreams.legacyOrigin;
  const children = new Map<TargetId, Child>();
  const notes: string[] = [];
  const start = async (target: TargetId, entry: string, spec: unknown) => {
    const child = await forkChild(target, entry, spec, { gcTrace: true });
    track(child);
    children.set(target, child);
  };
  const nginx = findNginx();
  if (!nginx) notes.push('nginx is not on PATH: the nginx proxy_pass anchor is skipped');
  const outcomes = await Promise.allSettled([
    start('floor', './floor-child.ts', { upstream: upstreamOrigin, log: false }),
    start('floor-log', './floor-child.ts', { upstream: upstreamOrigin, log: true }),
    start('floor-api2', './floor-child.ts', { upstream: upstreams.api2Origin, log: true, caFile: upstreams.caFile }),
    start('fastify', './fastify-child.ts', { upstream: upstreamOrigin }),
    start('hono', './hono-child.ts', { log: false }),
    start('hono-log', './hono-child.ts', { log: true }),
    ...(nginx
      ? [
          startNginx(nginx, upstreamOrigin).then((child) => {
            track(child);
            children.set('nginx', child);
          }),
        ]
      : []),
  ]);
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failure) throw failure.reason;
  return { children, notes };
}

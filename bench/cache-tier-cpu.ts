/**
 * The shared cache tier's CPU budget (issue: fleet): CPU per request of the gateway process for
 *   an L1 hit (no tier), an L1 hit with a Redis tier configured (must cost the same: an L1 hit
 *   never talks to Redis), and an L2 hit with L1 cold (cache.maxBytes below the page size, so L1
 *   never keeps it; budget: at most 2x the L1 hit).
 * A real redis-server from PATH on a free loopback port, stopped after; skipped (said so) when
 * there is none, and with --smoke. Printed with the progress lines, not in the JSON report.
 */
import { freePort } from './nginx.js';
import { spawn } from 'node:child_process';
import { forkChild } from './children.js';
import type { Child } from './children.js';
import { runLoad } from './load.js';
import type { BenchOptions } from './options.js';
import { SEARCH_TARGET } from './pages.js';
import { probe } from './probe.js';
import { REQUEST_HEADERS } from './scenarios.js';
import type { UpstreamInfo } from './scenarios.js';

type Variant = 'l1-hit' | 'l1-hit-with-tier' | 'l2-hit-l1-cold';
const VARIANTS: readonly Variant[] = ['l1-hit', 'l1-hit-with-tier', 'l2-hit-l1-cold'];


function configFor(variant: Variant, upstream: UpstreamInfo, redisUrl: string): Record<string, unknown> {
  const redis = { url: redisUrl, hashKey: 'bench-shared-hash-key', commandTimeoutMs: 2_000 };
  return {
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: { legacy: { baseUrl: upstream.legacyOrigin } },
    observability: { log: { destination: '/dev/null' } },
    routes: { 'recipes.search': { cache: { ttlMs: 3_600_000 } } },
    cache: variant === 'l1-hit' ? {} : variant === 'l1-hit-with-tier' ? { redis } : { redis, maxBytes: 1024 },
  };
}

/** Until the page is a HIT (the tier connects after start), at most 15 s. */
async function warm(url: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await probe(url, REQUEST_HEADERS)).xCache !== 'HIT') {
    if (Date.now() > deadline) throw new Error(`${url}: never a HIT`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function measureCacheTierCpu(upstream: UpstreamInfo, options: BenchOptions): Promise<string[]> {
  if (options.smoke) return ['cache tier CPU: not measured with --smoke (three more gateways and seconds of load each)'];
  const port = await freePort();
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const missing = await new Promise<boolean>((resolve) => {
    redis.once('error', () => resolve(true));
    redis.once('spawn', () => resolve(false));
  });
  if (missing) return ['cache tier CPU: skipped (no redis-server on PATH)'];
  const children: Child[] = [];
  try {
    const cpu = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
    const urls = new Map<Variant, string>();
    for (const variant of VARIANTS) {
      const child = await forkChild(variant, './gateway-child.ts', { config: configFor(variant, upstream, `redis://127.0.0.1:${port}`) });
      children.push(child);
      urls.set(variant, `${String(child.info['origin'])}${SEARCH_TARGET}`);
      await warm(urls.get(variant) ?? '');
    }
    for (let round = 0; round < Math.max(1, options.rounds); round++) {
      for (const [i, child] of children.entries()) {
        const variant = VARIANTS[i] as Variant;
        const before = await child.cpuMicros();
        const load = await runLoad({ url: urls.get(variant) ?? '', headers: REQUEST_HEADERS, connections: options.connections, durationS: options.durationS });
        const after = await child.cpuMicros();
        if (load.requests > 0 && load.errors === 0) cpu.get(variant)?.push((after - before) / load.requests);
      }
    }
    const best = (variant: Variant) => Math.min(...(cpu.get(variant) ?? [Number.NaN]));
    const l1 = best('l1-hit');
    const withTier = best('l1-hit-with-tier');
    const l2 = best('l2-hit-l1-cold');
    return [
      `cache tier CPU per request (best of ${Math.max(1, options.rounds)}): L1 hit ${l1.toFixed(1)} µs; L1 hit with a redis tier ${withTier.toFixed(1)} µs (${(withTier / l1).toFixed(2)}x);` +
        ` L2 hit, L1 cold ${l2.toFixed(1)} µs (${(l2 / l1).toFixed(2)}x, budget 2x)`,
    ];
  } finally {
    await Promise.allSettled(children.map((child) => child.kill()));
    redis.kill('SIGTERM');
  }
}

/**
 * Config generations, for hot reload. Each generation is one config in force: its upstream pools
 * and its core app. A request is handed to the generation current when it arrives and finishes
 * there, whatever is loaded meanwhile. A retired generation's pools close once its last request
 * is done. The page cache and the mapping memory carry over while their config stays the same;
 * circuit breakers and shadow counters start afresh with each generation.
 *
 * Not applied by a reload (they need a restart, and the reload says so): `listen`,
 * `observability`, `workers` and `cache.redis`. The config reloaded has the environment's
 * overrides applied as at start (src/node/start-config.ts), so these differ only when they truly
 * changed.
 */
import { readFile } from 'node:fs/promises';
import { createGatewayApp, createSearchCache } from '../app.js';
import type { GatewayDeps } from '../app.js';
import type { SearchCache } from '../cache/search-cache.js';
import type { GatewayConfig } from '../config/schema.js';
import { CACHEABLE_OPERATIONS } from '../config/schema.js';
import { whenReady } from '../hot-path.js';
import { createMappingMemory } from '../api2/review-directory.js';
import type { MappingMemory } from '../../mappings/types.js';
import type { TrafficState } from '../traffic/guarded-upstreams.js';
import { createUndiciUpstream } from '../upstream/undici-client.js';
import type { UpstreamClient } from '../upstream/types.js';
import type { FetchTarget } from './listener.js';
import type { Fleet } from './fleet/fleet.js';
import { configHash } from './config-hash.js';

type UpstreamConfig = NonNullable<GatewayConfig['upstreams']['api2']>;

export interface Generation {
  /** Per process: 1 at start, +1 per reload. */
  readonly version: number;
  /** The config's content hash: the same on every replica that runs this config (src/node/config-hash.ts). */
  readonly configHash: string;
  readonly loadedAt: string;
  readonly config: GatewayConfig;
  readonly app: FetchTarget;
  readonly traffic: TrafficState | undefined;
  readonly upstreams: readonly UpstreamClient[];
  /** The page cache this generation serves from (shared with the next one while the cache config stays the same). */
  readonly searchCache: SearchCache | null;
  inFlight: number;
  /** Counts a request of this generation out (made once per generation, not per request). */
  readonly answered: (response: Response) => Response;
  readonly failed: (error: unknown) => never;
}

/** What the app of every generation shares: the sinks, the identifier, the admin routes. */
export type AppWiring = Omit<GatewayDeps, 'config' | 'upstreams' | 'shared' | 'onTraffic'>;

export interface ReloadOutcome {
  readonly version: number;
  readonly configHash: string;
  /** Config sections that changed but need a restart to apply. */
  readonly needsRestart: readonly string[];
}

async function upstreamFor(name: string, config: UpstreamConfig, maxResponseBytes: number): Promise<UpstreamClient> {
  return createUndiciUpstream({
    name,
    baseUrl: config.baseUrl,
    connections: config.connections,
    keepAliveTimeoutMs: config.keepAliveTimeoutMs,
    maxResponseBytes,
    ...(config.caFile ? { ca: await readFile(config.caFile, 'utf8') } : {}),
  });
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export class Generations {
  private current!: Generation;
  private readonly memory: MappingMemory;
  private searchCache: SearchCache | null = null;

  private constructor(
    private readonly wiring: AppWiring,
    private readonly fleet: Fleet | undefined,
  ) {
    this.memory = fleet?.memory ?? createMappingMemory();
  }

  /** `fleet`: the state shared with other replicas (src/node/fleet), when configured. */
  static async start(config: GatewayConfig, wiring: AppWiring, fleet?: Fleet): Promise<Generations> {
    const generations = new Generations(wiring, fleet);
    generations.searchCache = createSearchCache(config, wiring.runtime.hmacSha256, fleet);
    generations.current = await generations.build(config, 1);
    return generations;
  }

  get active(): Generation {
    return this.current;
  }

  /** The listener's target: each request goes to the generation current at its arrival. */
  readonly target: FetchTarget = {
    fetch: ((request: Request, env: unknown, ctx: unknown) => {
      const generation = this.current;
      generation.inFlight += 1;
      try {
        const answer = (generation.app.fetch as (r: Request, e: unknown, c: unknown) => Response | Promise<Response>)(request, env, ctx);
        return whenReady(answer, generation.answered, generation.failed);
      } catch (error) {
        return generation.failed(error);
      }
    }) as FetchTarget['fetch'],
  };

  /** Swaps in a validated config atomically; the old generation drains, then closes its pools. */
  async reload(config: GatewayConfig): Promise<ReloadOutcome> {
    const previous = this.current;
    const cacheChanged =
      !same(config.cache, previous.config.cache) || CACHEABLE_OPERATIONS.some((id) => !same(config.routes[id]?.cache, previous.config.routes[id]?.cache));
    if (cacheChanged) this.searchCache = createSearchCache(config, this.wiring.runtime.hmacSha256, this.fleet);
    this.current = await this.build(config, previous.version + 1);
    void this.retire(previous);
    const needsRestart: string[] = (['listen', 'observability', 'workers'] as const).filter((key) => !same(config[key], previous.config[key]));
    if (!same(config.cache.redis, previous.config.cache.redis)) needsRestart.push('cache.redis');
    return { version: this.current.version, configHash: this.current.configHash, needsRestart };
  }

  async close(): Promise<void> {
    await Promise.all(this.current.upstreams.map((u) => u.close()));
  }

  private async build(config: GatewayConfig, version: number): Promise<Generation> {
    const maxBytes = config.limits.maxResponseBodyBytes;
    const legacy = await upstreamFor('legacy', config.upstreams.legacy, maxBytes);
    const api2 = config.upstreams.api2 ? await upstreamFor('api2', config.upstreams.api2, maxBytes) : undefined;
    let traffic: TrafficState | undefined;
    const app = createGatewayApp({
      ...this.wiring,
      config,
      upstreams: api2 ? { legacy, api2 } : { legacy },
      shared: { searchCache: this.searchCache, memory: this.memory },
      onTraffic: (state) => (traffic = state),
    });
    const generation: Generation = {
      version,
      configHash: configHash(config),
      loadedAt: new Date().toISOString(),
      config,
      app,
      traffic,
      upstreams: api2 ? [legacy, api2] : [legacy],
      searchCache: this.searchCache,
      inFlight: 0,
      answered: (response) => {
        generation.inFlight -= 1;
        return response;
      },
      failed: (error) => {
        generation.inFlight -= 1;
        throw error;
      },
    };
    return generation;
  }

  private async retire(generation: Generation): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (generation.inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all(generation.upstreams.map((u) => u.close()));
    // A page cache replaced by a reload is detached from the shared tier, which would else hold it forever.
    if (generation.searchCache !== this.searchCache) generation.searchCache?.dispose();
  }
}

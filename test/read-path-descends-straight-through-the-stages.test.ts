/**
 * A search read descends straight through the stages (issue 38 item 2): the call stack at the
 * deepest point of the read (the upstream port on a MISS, the memory tier's read on a HIT), on the
 * legacy side and on the api2 side, enters no file of the gateway twice. A stage that called back
 * into an earlier one (the page cache calling up into the page stage for its fill) shows as that
 * file entered again. The core app runs in process, the sandboxes behind it, a shadow route in the
 * config so every stage is composed. docs/architecture.md ("The read path") draws the same path.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGatewayApp } from '../src/app.js';
import { MemoryTier } from '../src/cache/memory-tier.js';
import { parseConfig } from '../src/config/schema.js';
import { createApi2SandboxApp } from '../src/sandbox/api2-app.js';
import { Api2Store } from '../src/sandbox/api2-store.js';
import { createLegacySandboxApp } from '../src/sandbox/legacy-app.js';
import { LegacyStore } from '../src/sandbox/legacy-store.js';
import type { UpstreamClient } from '../src/upstream/types.js';
import { inProcessUpstream } from './reliability-support.js';
import { testRuntime } from './support/test-runtime.js';

/** The gateway's files on a stack, outermost first, each run of one file as one entry. */
function descent(stack: string): string[] {
  const files = stack
    .split('\n')
    .map((line) => /\/((?:src|mappings)\/[^:)]+\.ts)/.exec(line)?.[1])
    // whenReady hands a value back to its caller's own callback: a helper, not a stage.
    .filter((file): file is string => file !== undefined && file !== 'src/hot-path.ts')
    .reverse();
  return files.filter((file, at) => file !== files[at - 1]);
}

/** Files entered more than once on the way down. */
const reentered = (path: readonly string[]): string[] => path.filter((file, at) => path.indexOf(file) !== at);

let deepest: string | undefined;
const traced = (client: UpstreamClient): UpstreamClient => ({
  ...client,
  request(request) {
    deepest ??= new Error('upstream port').stack;
    return client.request(request);
  },
});

let limit: number;
beforeAll(() => {
  limit = Error.stackTraceLimit;
  Error.stackTraceLimit = Infinity;
  const read = MemoryTier.prototype.get;
  vi.spyOn(MemoryTier.prototype, 'get').mockImplementation(function (this: MemoryTier, ...args: Parameters<MemoryTier['get']>) {
    const entry = read.apply(this, args);
    if (entry) deepest ??= new Error('page read').stack;
    return entry;
  });
});
afterAll(() => {
  Error.stackTraceLimit = limit;
  vi.restoreAllMocks();
});

function appWith(mode: 'legacy' | 'api2') {
  const parsed = parseConfig({
    upstreams: { legacy: { baseUrl: 'http://legacy.internal' }, api2: { baseUrl: 'https://api2.internal' } },
    // Another route in shadow mode: the shadow stage is composed around the pages stage.
    routes: { 'recipes.search': { mode }, 'reviews.list': { mode: 'shadow', shadow: { sampleRate: 1 } } },
    observability: { log: { enabled: false } },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const upstreams = {
    legacy: traced(inProcessUpstream('legacy', createLegacySandboxApp(new LegacyStore()).fetch, [])),
    api2: traced(inProcessUpstream('api2', createApi2SandboxApp(new Api2Store()).fetch, [])),
  };
  return createGatewayApp({ config: parsed.config, upstreams, runtime: testRuntime() });
}

async function traceOf(app: ReturnType<typeof appWith>): Promise<{ cache: string | null; path: string[] }> {
  deepest = undefined;
  const response = await app.fetch(new Request('http://api.bigoven.com/recipes?title_kw=soup&api_key=sandbox-free-key', { headers: { accept: 'application/json' } }));
  expect(response.status).toBe(200);
  await response.arrayBuffer();
  return { cache: response.headers.get('x-cache'), path: descent(deepest ?? '') };
}

/** The stages a cached read passes, outermost first, down to the page cache. */
const DOWN_TO_THE_PAGES = [
  'src/pipeline/request-context.ts',
  'src/pipeline/dispatch.ts',
  'src/pipeline/shadow-stage.ts',
  'src/pipeline/invalidation-stage.ts',
  'src/pipeline/page-stage.ts',
  'src/cache/search-cache.ts',
  'src/cache/page-cache.ts',
];

describe('a search read descends straight', () => {
  for (const mode of ['legacy', 'api2'] as const) {
    it(`on the ${mode} side, MISS then HIT, enters no file twice`, async () => {
      const app = appWith(mode);
      const miss = await traceOf(app);
      expect(miss.cache).toBe('MISS');
      const side = mode === 'legacy' ? 'src/pipeline/legacy-side.ts' : 'src/api2/call.ts';
      const stages = [...DOWN_TO_THE_PAGES, 'src/pipeline/page-fill.ts', 'src/pipeline/choose-side.ts', side];
      expect(miss.path.filter((file) => stages.includes(file)), miss.path.join('\n')).toEqual(stages);
      expect(reentered(miss.path), miss.path.join('\n')).toEqual([]);

      const hit = await traceOf(app);
      expect(hit.cache).toBe('HIT');
      // Read where the page cache looks into its memory tier: the whole descent, nothing else.
      expect(hit.path).toEqual(DOWN_TO_THE_PAGES);
    });
  }
});

/**
 * `npm run bench -- soak [flags]`: a mixed legacy workload against two gateways, one with every route on
 * legacy (pass-through) and one with every mappable route on api2, both with the search cache on,
 * in front of the sandbox backends (a child process), each gateway in its own child process so
 * its RSS is its own. Every connection loops over all 16 operations (19 requests: both grocery
 * update and delete forms, JSON and XML reads), creating and deleting its own records.
 *
 *   --duration S      seconds of measured load (default 60)
 *   --connections N   connections in all, split between the two gateways (default 50)
 *   --warmup S        unmeasured load first, so the RSS at start is a warm one (default 5)
 *   --json FILE       also write the results as JSON
 *
 * Prints requests, errors (connection errors, timeouts and any answer that is not 2xx), p50/p99
 * latency, the answers per operation and mode, and each gateway's RSS at start (after the warm-up)
 * and at end with its growth; both after a full garbage collection in the child (--expose-gc), so
 * they compare live memory rather than the collector's sawtooth (the RSS every 5 s, without a
 * collection, is printed too, with the V8 heap in use). Targets: 0 errors, RSS growth < 10 %. Exits 1 when there are errors or an operation was
 * never answered 2xx in a mode; the RSS verdict is printed, not enforced (it needs the full run).
 * All traffic stays on 127.0.0.1; the run is bounded by --duration.
 */
import { fork } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { capabilities } from '../mappings/index.js';
import { OPERATIONS, OPERATION_IDS } from '../src/catalogue/operations.js';
import { buildDataset } from '../src/sandbox/dataset.js';
import type { ChildMessage, ParentMessage } from './ipc.js';
import { percentile } from './load.js';
import type { MemoryAnswer, MemoryRequest } from './soak-memory.js';

export interface SoakOptions {
  readonly durationS: number;
  readonly connections: number;
  readonly warmupS: number;
  readonly json: string | undefined;
}

type Mode = 'legacy' | 'api2';
const MODES: readonly Mode[] = ['legacy', 'api2'];

export interface SoakReport {
  readonly durationS: number;
  readonly connections: Readonly<Record<Mode, number>>;
  readonly requests: number;
  readonly reqPerSec: number;
  readonly errors: number;
  readonly connectionErrors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** operation → mode → status → count */
  readonly answers: Record<string, Record<Mode, Record<string, number>>>;
  /** Operations never answered 2xx in a mode. */
  readonly uncovered: string[];
  /** Per process: RSS after a full GC at start (after the warm-up) and at end, the highest seen, every 5 s. */
  readonly rssMb: Readonly<Record<string, { start: number; end: number; max: number; growthPct: number; samples: number[] }>>;
  /** Per process: V8 heap in use after a full GC, at start and end. */
  readonly heapMb: Readonly<Record<string, { start: number; end: number; growthPct: number }>>;
  readonly rssTargetPct: number;
  readonly pass: { readonly errors: boolean; readonly rss: boolean; readonly coverage: boolean };
}

const KEY = 'sandbox-free-key';
const USERS = [`Basic ${Buffer.from('alice:alice-pass').toString('base64')}`, `Basic ${Buffer.from('bob:bob-pass').toString('base64')}`];
const KEYWORDS = ['soup', 'chicken', 'pie', 'salad', 'bread', 'stew', 'cake', 'rice', 'pasta', 'beef', 'tofu', 'curry'];
const RSS_TARGET_PCT = 10;

/** Recipes every user may review, favorite and try: public ones (the sandbox dataset is deterministic). */
const RECIPE_IDS = buildDataset()
  .recipes.filter((recipe) => !recipe.isPrivate && !recipe.hideFromPublicSearch)
  .map((recipe) => recipe.id);

/**
 * Each loop of a connection takes the next number; its recipe and user come from it. Consecutive
 * loops take different recipes, so no two connections work on the same recipe at once.
 */
let loops = 0;

interface Context {
  n: number;
  rid: number;
  auth: string;
  xml: boolean;
  reviewId?: number;
  itemId?: number;
  guid?: string;
  guid2?: string;
}

type Answers = SoakReport['answers'];

function workload(mode: Mode, answers: Answers): autocannon.Request[] {
  const json = (ctx: Context, extra: Record<string, string> = {}) => ({ accept: 'application/json', authorization: ctx.auth, ...extra });
  const count = (op: string) => (status: number) => {
    const byMode = (answers[op] ??= { legacy: {}, api2: {} })[mode];
    byMode[status] = (byMode[status] ?? 0) + 1;
  };
  const parse = (body: string): Record<string, unknown> => {
    try {
      return JSON.parse(body) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  type Step = {
    op: string;
    build: (ctx: Context) => { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; headers: Record<string, string>; body?: string };
    learn?: (body: Record<string, unknown>, ctx: Context) => void;
  };
  const body = (value: object) => JSON.stringify(value);
  const steps: Step[] = [
    {
      op: 'recipes.search',
      build: (ctx) => {
        ctx.n = loops++;
        ctx.rid = RECIPE_IDS[ctx.n % RECIPE_IDS.length] as number;
        ctx.auth = USERS[ctx.n % 2] as string;
        ctx.xml = ctx.n % 3 === 0;
        const kw = KEYWORDS[ctx.n % KEYWORDS.length] as string;
        const headers: Record<string, string> = ctx.xml ? {} : { accept: 'application/json' };
        return { method: 'GET', path: `/recipes?title_kw=${kw}&pg=${1 + (ctx.n % 3)}&rpp=10&api_key=${KEY}`, headers };
      },
    },
    {
      op: 'reviews.create',
      build: (ctx) => ({ method: 'POST', path: `/reviews?api_key=${KEY}`, headers: json(ctx, { 'content-type': 'application/json' }), body: body({ rid: ctx.rid, rating: 1 + (ctx.n % 5), makeagain: 'yes', message: `soak ${ctx.n}` }) }),
      learn: (answer, ctx) => void (ctx.reviewId = answer['ReviewID'] as number),
    },
    { op: 'reviews.get', build: (ctx) => ({ method: 'GET', path: `/review/${ctx.reviewId}?api_key=${KEY}`, headers: { accept: 'application/json' } }) },
    { op: 'reviews.list', build: (ctx) => ({ method: 'GET', path: `/reviews?rid=${ctx.rid}&api_key=${KEY}`, headers: ctx.xml ? { accept: 'application/xml' } : { accept: 'application/json' } }) },
    {
      op: 'reviews.update',
      build: (ctx) => ({ method: 'PUT', path: `/review/${ctx.reviewId}?api_key=${KEY}`, headers: json(ctx, { 'content-type': 'application/json' }), body: body({ rid: ctx.rid, rating: 3, makeagain: 'no', message: 'soak again' }) }),
    },
    { op: 'reviews.delete', build: (ctx) => ({ method: 'DELETE', path: `/review/${ctx.reviewId}?rid=${ctx.rid}&api_key=${KEY}`, headers: json(ctx) }) },
    {
      op: 'grocery.create',
      build: (ctx) => ({ method: 'POST', path: `/grocerylist?api_key=${KEY}`, headers: json(ctx, { 'content-type': 'application/json' }), body: body({ quantity: '1 lb', name: `soak ${ctx.n}`, department: 'Produce' }) }),
      learn: (answer, ctx) => {
        ctx.itemId = answer['ItemID'] as number;
        ctx.guid = answer['GUID'] as string;
      },
    },
    { op: 'grocery.list', build: (ctx) => ({ method: 'GET', path: `/grocerylist?api_key=${KEY}`, headers: ctx.xml ? { authorization: ctx.auth } : json(ctx) }) },
    {
      op: 'grocery.update',
      build: (ctx) => ({ method: 'POST', path: `/grocerylist/${ctx.itemId}?api_key=${KEY}`, headers: json(ctx, { 'content-type': 'application/x-www-form-urlencoded' }), body: `quantity=2+lb&name=soak+${ctx.n}` }),
    },
    {
      op: 'grocery.update',
      build: (ctx) => ({ method: 'PUT', path: `/grocerylist/${ctx.guid}?api_key=${KEY}`, headers: json(ctx, { 'content-type': 'application/json' }), body: body({ quantity: '3', name: `soak ${ctx.n}` }) }),
    },
    { op: 'grocery.delete', build: (ctx) => ({ method: 'DELETE', path: `/grocerylist${ctx.itemId}?api_key=${KEY}`, headers: json(ctx) }) },
    {
      op: 'grocery.create',
      build: (ctx) => ({ method: 'POST', path: `/grocerylist?api_key=${KEY}`, headers: json(ctx, { 'content-type': 'application/json' }), body: body({ quantity: '1', name: `soak bis ${ctx.n}` }) }),
      learn: (answer, ctx) => void (ctx.guid2 = answer['GUID'] as string),
    },
    { op: 'grocery.delete', build: (ctx) => ({ method: 'DELETE', path: `/grocerylist/${ctx.guid2}?api_key=${KEY}`, headers: json(ctx) }) },
    { op: 'favorites.create', build: (ctx) => ({ method: 'POST', path: `/favorites?api_key=${KEY}`, headers: json(ctx, { 'content-type': 'application/json' }), body: body({ rid: ctx.rid }) }) },
    { op: 'favorites.list', build: (ctx) => ({ method: 'GET', path: `/favorites?api_key=${KEY}`, headers: json(ctx) }) },
    { op: 'favorites.delete', build: (ctx) => ({ method: 'DELETE', path: `/favorites?rid=${ctx.rid}&api_key=${KEY}`, headers: json(ctx) }) },
    { op: 'trysoons.create', build: (ctx) => ({ method: 'POST', path: `/trysoons?api_key=${KEY}`, headers: json(ctx, { 'content-type': 'application/x-www-form-urlencoded' }), body: `rid=${ctx.rid}` }) },
    { op: 'trysoons.list', build: (ctx) => ({ method: 'GET', path: `/trysoons?api_key=${KEY}`, headers: ctx.xml ? { authorization: ctx.auth } : json(ctx) }) },
    { op: 'trysoons.delete', build: (ctx) => ({ method: 'DELETE', path: `/trysoons?rid=${ctx.rid}&api_key=${KEY}`, headers: json(ctx) }) },
  ];
  // A read no step above names is driven by its catalogue entry's sandbox example (a write needs a
  // step of its own: repeated, it must create what it changes).
  const scripted = new Set(steps.map((step) => step.op));
  for (const op of OPERATIONS) {
    if (scripted.has(op.id) || !op.safe) continue;
    const { method, target } = op.sandbox.example;
    const path = `${target}${target.includes('?') ? '&' : '?'}api_key=${KEY}`;
    steps.push({ op: op.id, build: (ctx) => ({ method, path, headers: op.auth === 'key' ? { accept: 'application/json' } : json(ctx) }) });
  }
  return steps.map((step) => {
    const record = count(step.op);
    return {
      setupRequest: (request: autocannon.Request, context: object) => {
        const built = step.build(context as Context);
        return { ...request, ...built, ...(built.body === undefined ? { body: '' } : {}) } as autocannon.Request;
      },
      onResponse: (status: number, text: string, context: object) => {
        record(status);
        if (step.learn && status === 200) step.learn(parse(text), context as Context);
      },
    };
  });
}

interface SoakChild {
  readonly name: string;
  readonly info: Readonly<Record<string, string | number>>;
  /** RSS and heap in use, after a full garbage collection when `gc`. */
  memory(gc: boolean): Promise<{ rss: number; heapUsed: number }>;
  kill(): Promise<void>;
}

/** Forks `bench/<entry>` (tsx, --expose-gc) with `spec`; resolves once it reports ready. */
async function forkSoakChild(name: string, entry: string, spec: unknown): Promise<SoakChild> {
  const child = fork(fileURLToPath(new URL(entry, import.meta.url)), [JSON.stringify(spec)], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const kill = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    try {
      if (child.connected) child.send({ type: 'stop' } satisfies ParentMessage);
      else child.kill('SIGTERM');
    } catch {
      child.kill('SIGKILL');
    }
    await exited;
    clearTimeout(timer);
  };
  const info = await new Promise<Readonly<Record<string, string | number>>>((resolveInfo, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: not ready after 30 s`)), 30_000);
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolveInfo(message.info);
      } else if (message.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`${name} failed to start: ${message.message}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before ready (code ${code})`));
    });
  }).catch(async (error: unknown) => {
    await kill();
    throw error;
  });
  let nextId = 1;
  return {
    name,
    info,
    kill,
    memory: (gc) =>
      new Promise((resolveMemory, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => finish(new Error(`${name}: no memory answer`)), 10_000);
        const onMessage = (message: MemoryAnswer | ChildMessage) => {
          if (message.type === 'soak-memory' && message.id === id) finish(undefined, message);
        };
        function finish(error: Error | undefined, answer?: MemoryAnswer) {
          clearTimeout(timer);
          child.off('message', onMessage);
          if (error || !answer) reject(error ?? new Error('no memory answer'));
          else resolveMemory({ rss: answer.rss, heapUsed: answer.heapUsed });
        }
        child.on('message', onMessage);
        child.send({ type: 'soak-memory', id, gc } satisfies MemoryRequest);
      }),
  };
}

interface Run {
  readonly result: autocannon.Result;
  readonly latencies: number[];
}

function runLoad(origin: string, connections: number, durationS: number, requests: autocannon.Request[]): Promise<Run> {
  const latencies: number[] = [];
  // autocannon checks its deadline on a sample tick only: ticks that divide the duration exactly.
  const ticks = Math.max(1, Math.ceil(durationS));
  return new Promise((resolvePromise, reject) => {
    const instance = autocannon(
      { url: origin, connections, duration: durationS, sampleInt: (durationS * 1000) / ticks, timeout: 10, requests },
      (error: unknown, result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolvePromise({ result, latencies })),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => void latencies.push(responseTime));
  });
}

function gatewayConfig(mode: Mode, upstreams: SoakChild['info']): Record<string, unknown> {
  const mapped = capabilities()
    .filter((row) => row.mapped)
    .map((row) => row.operation);
  return {
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: {
      legacy: { baseUrl: upstreams['legacyOrigin'] },
      api2: { baseUrl: upstreams['api2Origin'], caFile: upstreams['caFile'] },
    },
    routes: mode === 'api2' ? Object.fromEntries(mapped.map((id) => [id, { mode: 'api2' }])) : {},
    cache: { enabled: true },
    observability: { log: { destination: '/dev/null' } },
  };
}

export async function runSoak(options: SoakOptions, progress: (line: string) => void = () => undefined): Promise<SoakReport> {
  const children: SoakChild[] = [];
  try {
    progress('starting the sandbox backends and two gateways (legacy mode, api2 mode) in child processes');
    const upstreams = await forkSoakChild('soak-upstreams', './soak-upstreams-child.ts', {});
    children.push(upstreams);
    const gateways = {} as Record<Mode, SoakChild>;
    for (const mode of MODES) {
      gateways[mode] = await forkSoakChild(`gateway-${mode}`, './soak-gateway-child.ts', { config: gatewayConfig(mode, upstreams.info) });
      children.push(gateways[mode]);
    }
    const split: Record<Mode, number> = { legacy: Math.ceil(options.connections / 2), api2: Math.floor(options.connections / 2) };
    const live = MODES.filter((mode) => split[mode] > 0);

    if (options.warmupS > 0) {
      progress(`warm-up: ${options.warmupS} s`);
      const discard: Answers = {};
      await Promise.all(live.map((mode) => runLoad(String(gateways[mode].info['origin']), split[mode], options.warmupS, workload(mode, discard))));
    }

    const rss: Record<string, { start: number; end: number; max: number; growthPct: number; samples: number[] }> = {};
    const heap: Record<string, { start: number; end: number }> = {};
    const measured = [...live.map((mode) => [`gateway ${mode}`, gateways[mode]] as const), ['sandboxes', upstreams] as const];
    for (const [name, child] of measured) {
      const start = await child.memory(true);
      rss[name] = { start: start.rss, end: start.rss, max: start.rss, growthPct: 0, samples: [] };
      heap[name] = { start: start.heapUsed, end: start.heapUsed };
    }
    let tick = 0;
    const sampler = setInterval(() => {
      tick += 1;
      for (const [name, child] of measured) {
        void child.memory(false).then(
          ({ rss: value }) => {
            const entry = rss[name];
            if (!entry) return;
            entry.max = Math.max(entry.max, value);
            if (tick % 5 === 0) entry.samples.push(value);
          },
          () => undefined,
        );
      }
    }, 1000);

    progress(`load: ${options.durationS} s at ${options.connections} connections (${split.legacy} legacy mode, ${split.api2} api2 mode)`);
    const answers: Answers = {};
    const runs = await Promise.all(live.map((mode) => runLoad(String(gateways[mode].info['origin']), split[mode], options.durationS, workload(mode, answers))));
    clearInterval(sampler);
    for (const [name, child] of measured) {
      const entry = rss[name];
      const heapEntry = heap[name];
      if (!entry || !heapEntry) continue;
      const end = await child.memory(true);
      entry.end = end.rss;
      heapEntry.end = end.heapUsed;
      entry.max = Math.max(entry.max, entry.end);
      entry.growthPct = ((entry.end - entry.start) / entry.start) * 100;
    }

    const sum = (pick: (r: autocannon.Result) => number) => runs.reduce((total, run) => total + pick(run.result), 0);
    const latencies = Float64Array.from(runs.flatMap((run) => run.latencies)).sort();
    const requests = sum((r) => r.requests.total);
    const connectionErrors = sum((r) => r.errors);
    const timeouts = sum((r) => r.timeouts);
    const non2xx = sum((r) => r.non2xx);
    const uncovered: string[] = [];
    for (const op of OPERATION_IDS) {
      for (const mode of live) {
        const statuses = answers[op]?.[mode] ?? {};
        if (!Object.entries(statuses).some(([status, n]) => status.startsWith('2') && n > 0)) uncovered.push(`${op} (${mode})`);
      }
    }
    const errors = connectionErrors + timeouts + non2xx;
    const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
    const rssMb = Object.fromEntries(
      Object.entries(rss).map(([name, r]) => [name, { start: mb(r.start), end: mb(r.end), max: mb(r.max), growthPct: Math.round(r.growthPct * 10) / 10, samples: r.samples.map(mb) }]),
    );
    return {
      durationS: options.durationS,
      connections: split,
      requests,
      reqPerSec: Math.round(requests / options.durationS),
      errors,
      connectionErrors,
      timeouts,
      non2xx,
      p50Ms: Math.round(percentile(latencies, 50) * 100) / 100,
      p99Ms: Math.round(percentile(latencies, 99) * 100) / 100,
      answers,
      uncovered,
      rssMb,
      heapMb: Object.fromEntries(
        Object.entries(heap).map(([name, h]) => [name, { start: mb(h.start), end: mb(h.end), growthPct: Math.round(((h.end - h.start) / h.start) * 1000) / 10 }]),
      ),
      rssTargetPct: RSS_TARGET_PCT,
      pass: {
        errors: errors === 0,
        coverage: uncovered.length === 0,
        rss: Object.entries(rssMb).every(([name, r]) => !name.startsWith('gateway') || r.growthPct < RSS_TARGET_PCT),
      },
    };
  } finally {
    await Promise.all(children.map((child) => child.kill()));
  }
}

export function renderSoak(report: SoakReport): string {
  const lines: string[] = [];
  const pad = (text: string | number, width: number) => String(text).padEnd(width);
  lines.push(`soak: ${report.durationS} s at ${report.connections.legacy + report.connections.api2} connections (${report.connections.legacy} legacy mode, ${report.connections.api2} api2 mode), cache on, all 16 operations`);
  lines.push(`requests   ${report.requests} (${report.reqPerSec}/s)`);
  lines.push(`errors     ${report.errors} (connection errors ${report.connectionErrors}, timeouts ${report.timeouts}, not 2xx ${report.non2xx})`);
  lines.push(`latency    p50 ${report.p50Ms} ms, p99 ${report.p99Ms} ms`);
  lines.push('');
  lines.push(`${pad('operation', 20)}${pad('legacy mode', 28)}api2 mode`);
  const show = (statuses: Record<string, number> | undefined) =>
    Object.entries(statuses ?? {})
      .sort()
      .map(([status, n]) => `${status}×${n}`)
      .join(' ') || '-';
  for (const op of OPERATION_IDS) lines.push(`${pad(op, 20)}${pad(show(report.answers[op]?.legacy), 28)}${show(report.answers[op]?.api2)}`);
  lines.push('');
  lines.push(`${pad('RSS (MB, after GC)', 20)}${pad('start', 10)}${pad('end', 10)}${pad('max', 10)}growth`);
  for (const [name, r] of Object.entries(report.rssMb)) {
    lines.push(`${pad(name, 20)}${pad(r.start, 10)}${pad(r.end, 10)}${pad(r.max, 10)}${r.growthPct >= 0 ? '+' : ''}${r.growthPct} %`);
  }
  for (const [name, h] of Object.entries(report.heapMb)) lines.push(`${pad(name, 20)}heap in use after GC: ${h.start} → ${h.end} MB (${h.growthPct >= 0 ? '+' : ''}${h.growthPct} %)`);
  for (const [name, r] of Object.entries(report.rssMb)) if (r.samples.length > 0) lines.push(`${pad(name, 20)}RSS every 5 s: ${r.samples.join(' ')}`);
  lines.push('');
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  lines.push(`errors: ${report.errors} (target 0) ${verdict(report.pass.errors)}`);
  lines.push(`operations answered 2xx in both modes: ${report.uncovered.length === 0 ? 'all' : `missing ${report.uncovered.join(', ')}`} ${verdict(report.pass.coverage)}`);
  lines.push(`gateway RSS growth (target < ${report.rssTargetPct} %): ${verdict(report.pass.rss)}${report.durationS < 60 ? ' (a short run: indicative only)' : ''}`);
  return lines.join('\n');
}

function parseSoakArgs(args: readonly string[]): SoakOptions {
  const { values } = parseArgs({
    args: [...args],
    options: { duration: { type: 'string' }, connections: { type: 'string' }, warmup: { type: 'string' }, json: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  const number = (name: string, text: string | undefined, fallback: number, min: number, max: number, integer: boolean): number => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      throw new Error(`--${name}: must be a ${integer ? 'whole ' : ''}number from ${min} to ${max}, got ${JSON.stringify(text)}`);
    }
    return value;
  };
  return {
    durationS: number('duration', values.duration, 60, 1, 86_400, false),
    connections: number('connections', values.connections, 50, 2, 1000, true),
    warmupS: number('warmup', values.warmup, 5, 0, 600, false),
    json: values.json,
  };
}

async function main(): Promise<number> {
  let options: SoakOptions;
  try {
    options = parseSoakArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const report = await runSoak(options, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(`${renderSoak(report)}\n`);
  if (options.json) {
    const file = resolve(options.json);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`JSON written to ${file}\n`);
  }
  return report.pass.errors && report.pass.coverage ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);

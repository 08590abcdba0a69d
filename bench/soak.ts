/**
 * `npm run bench -- soak`: every operation looped against a legacy-mode and an api2-mode gateway (cache
 * on) in front of the sandbox; errors, latency, answers per operation and mode, RSS over time. Exits 1 on
 * errors or an operation never answered 2xx in a mode (docs/benchmarks-anchors.md, "The other modes").
 */
import type autocannon from 'autocannon';
import { capabilities } from '../src/catalogue/movability.js';
import { OPERATIONS, OPERATION_IDS } from '../src/catalogue/operations.js';
import { SANDBOX_BEHAVIOUR } from '../src/sandbox/behaviour.js';
import { buildDataset } from '../src/sandbox/dataset/dataset.js';
import { forkChild, forkUpstreams } from './children.js';
import type { Child, UpstreamInfo } from './children.js';
import { percentile, runLoad } from './load.js';
import type { Options, Outcome } from './options.js';

type Mode = 'legacy' | 'api2';
const MODES: readonly Mode[] = ['legacy', 'api2'];
const RSS_TARGET_PCT = 10;

/** operation → mode → status → count */
type Answers = Record<string, Record<Mode, Record<string, number>>>;
export type SoakReport = Awaited<ReturnType<typeof runSoak>>;

const KEY = 'sandbox-free-key';
const USERS = ['alice:alice-pass', 'bob:bob-pass'].map((pair) => `Basic ${Buffer.from(pair).toString('base64')}`);
const KEYWORDS = ['soup', 'chicken', 'pie', 'salad', 'bread', 'stew', 'cake', 'rice', 'pasta', 'beef', 'tofu', 'curry'];

/** A connection's loop: its number, recipe, user and format, and the records it created. */
interface Context { n: number; rid: number; auth: string; xml: boolean; reviewId?: number; itemId?: number; guid?: string; guid2?: string }
type Built = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; headers: Record<string, string>; body?: string };
type Step = { op: string; build: (ctx: Context) => Built; learn?: (answer: Record<string, unknown>, ctx: Context) => void };

/** A request as the user of the loop: `payload` an object is sent as JSON, a string as a form. */
function as(ctx: Context, method: Built['method'], path: string, payload?: object | string): Built {
  const type: Record<string, string> = payload === undefined ? {} : { 'content-type': typeof payload === 'string' ? 'application/x-www-form-urlencoded' : 'application/json' };
  const body = payload === undefined ? {} : { body: typeof payload === 'string' ? payload : JSON.stringify(payload) };
  return { method, path: `${path}${path.includes('?') ? '&' : '?'}api_key=${KEY}`, headers: { accept: 'application/json', authorization: ctx.auth, ...type }, ...body };
}

function steps(recipeIds: readonly number[], loops: { next: number }): Step[] {
  const scripted: Step[] = [
    {
      op: 'recipes.search',
      build: (ctx) => {
        // Each loop takes the next number; consecutive loops take different recipes, so no two connections share one.
        ctx.n = loops.next++;
        ctx.rid = recipeIds[ctx.n % recipeIds.length]!;
        ctx.auth = USERS[ctx.n % 2]!;
        ctx.xml = ctx.n % 3 === 0;
        const headers: Record<string, string> = ctx.xml ? {} : { accept: 'application/json' };
        return { method: 'GET', path: `/recipes?title_kw=${KEYWORDS[ctx.n % KEYWORDS.length]}&pg=${1 + (ctx.n % 3)}&rpp=10&api_key=${KEY}`, headers };
      },
    },
    {
      op: 'reviews.create',
      build: (ctx) => as(ctx, 'POST', '/reviews', { rid: ctx.rid, rating: 1 + (ctx.n % 5), makeagain: 'yes', message: `soak ${ctx.n}` }),
      learn: (a, ctx) => void (ctx.reviewId = a['ReviewID'] as number),
    },
    { op: 'reviews.get', build: (ctx) => ({ method: 'GET', path: `/review/${ctx.reviewId}?api_key=${KEY}`, headers: { accept: 'application/json' } }) },
    { op: 'reviews.list', build: (ctx) => ({ method: 'GET', path: `/reviews?rid=${ctx.rid}&api_key=${KEY}`, headers: { accept: ctx.xml ? 'application/xml' : 'application/json' } }) },
    { op: 'reviews.update', build: (ctx) => as(ctx, 'PUT', `/review/${ctx.reviewId}`, { rid: ctx.rid, rating: 3, makeagain: 'no', message: 'soak again' }) },
    { op: 'reviews.delete', build: (ctx) => as(ctx, 'DELETE', `/review/${ctx.reviewId}?rid=${ctx.rid}`) },
    {
      op: 'grocery.create',
      build: (ctx) => as(ctx, 'POST', '/grocerylist', { quantity: '1 lb', name: `soak ${ctx.n}`, department: 'Produce' }),
      learn: (a, ctx) => void ((ctx.itemId = a['ItemID'] as number), (ctx.guid = a['GUID'] as string)),
    },
    { op: 'grocery.list', build: (ctx) => ({ ...as(ctx, 'GET', '/grocerylist'), ...(ctx.xml ? { headers: { authorization: ctx.auth } } : {}) }) },
    { op: 'grocery.update', build: (ctx) => as(ctx, 'POST', `/grocerylist/${ctx.itemId}`, `quantity=2+lb&name=soak+${ctx.n}`) },
    { op: 'grocery.update', build: (ctx) => as(ctx, 'PUT', `/grocerylist/${ctx.guid}`, { quantity: '3', name: `soak ${ctx.n}` }) },
    { op: 'grocery.delete', build: (ctx) => as(ctx, 'DELETE', `/grocerylist${ctx.itemId}`) },
    { op: 'grocery.create', build: (ctx) => as(ctx, 'POST', '/grocerylist', { quantity: '1', name: `soak bis ${ctx.n}` }), learn: (a, ctx) => void (ctx.guid2 = a['GUID'] as string) },
    { op: 'grocery.delete', build: (ctx) => as(ctx, 'DELETE', `/grocerylist/${ctx.guid2}`) },
    { op: 'favorites.create', build: (ctx) => as(ctx, 'POST', '/favorites', { rid: ctx.rid }) },
    { op: 'favorites.list', build: (ctx) => as(ctx, 'GET', '/favorites') },
    { op: 'favorites.delete', build: (ctx) => as(ctx, 'DELETE', `/favorites?rid=${ctx.rid}`) },
    { op: 'trysoons.create', build: (ctx) => as(ctx, 'POST', '/trysoons', `rid=${ctx.rid}`) },
    { op: 'trysoons.list', build: (ctx) => ({ ...as(ctx, 'GET', '/trysoons'), ...(ctx.xml ? { headers: { authorization: ctx.auth } } : {}) }) },
    { op: 'trysoons.delete', build: (ctx) => as(ctx, 'DELETE', `/trysoons?rid=${ctx.rid}`) },
  ];
  // A read no step above names is driven by its sandbox example (src/sandbox/behaviour.ts) (a write needs a
  // step of its own: repeated, it must create what it changes).
  const named = new Set(scripted.map((step) => step.op));
  const examples = OPERATIONS.filter((op) => op.safe && !named.has(op.id)).map((op): Step => ({
    op: op.id,
    build: (ctx) => ({ ...as(ctx, SANDBOX_BEHAVIOUR[op.id].example.method, SANDBOX_BEHAVIOUR[op.id].example.target), ...(op.auth === 'key' ? { headers: { accept: 'application/json' } } : {}) }),
  }));
  return [...scripted, ...examples];
}

/** The steps as autocannon requests of one gateway, each answer counted into `answers`. */
function workload(mode: Mode, all: readonly Step[], answers: Answers): autocannon.Request[] {
  return all.map((step) => ({
    setupRequest: (request: autocannon.Request, context: object) => {
      const built = step.build(context as Context);
      return { ...request, ...built, body: built.body ?? '' } as autocannon.Request;
    },
    onResponse: (status: number, text: string, context: object) => {
      const byMode = (answers[step.op] ??= { legacy: {}, api2: {} })[mode];
      byMode[status] = (byMode[status] ?? 0) + 1;
      if (!step.learn || status !== 200) return;
      try {
        step.learn(JSON.parse(text) as Record<string, unknown>, context as Context);
      } catch {
        // Not JSON: the steps that need what it would have said fail, and are counted.
      }
    },
  }));
}

function gatewayConfig(mode: Mode, upstreams: UpstreamInfo): Record<string, unknown> {
  const mapped = capabilities().filter((row) => row.mapped);
  return {
    listen: { host: '127.0.0.1', port: 0 },
    upstreams: { legacy: { baseUrl: upstreams.legacyOrigin }, api2: { baseUrl: upstreams.api2Origin, caFile: upstreams.caFile } },
    routes: mode === 'api2' ? Object.fromEntries(mapped.map((row) => [row.operation, { mode: 'api2' }])) : {},
    cache: { enabled: true },
    observability: { log: { destination: '/dev/null' } },
  };
}

export async function runSoak(options: Options) {
  const say = (line: string) => void process.stderr.write(`${line}\n`);
  const recipeIds = buildDataset().recipes.filter((r) => !r.isPrivate && !r.hideFromPublicSearch).map((r) => r.id);
  const all = steps(recipeIds, { next: 0 });
  say('starting the sandbox backends and two gateways (legacy mode, api2 mode)');
  const { child: sandboxes, info } = await forkUpstreams('./sandbox-child.ts', { execArgv: ['--expose-gc'] });
  const gateways = {} as Record<Mode, Child>;
  for (const mode of MODES) gateways[mode] = await forkChild(`gateway ${mode}`, './gateway-child.ts', { config: gatewayConfig(mode, info) }, { execArgv: ['--expose-gc'] });
  const split: Record<Mode, number> = { legacy: Math.ceil(options.connections / 2), api2: Math.floor(options.connections / 2) };
  const live = MODES.filter((mode) => split[mode] > 0);
  const load = (durationS: number, answers: Answers) =>
    Promise.all(live.map((mode) => runLoad({ url: String(gateways[mode].info['origin']), connections: split[mode], durationS, requests: workload(mode, all, answers) })));

  if (options.warmupS > 0) {
    say(`warm-up: ${options.warmupS} s`);
    await load(options.warmupS, {});
  }
  const measured = [...live.map((mode) => [`gateway ${mode}`, gateways[mode]] as const), ['sandboxes', sandboxes] as const];
  const rssOf = async (child: Child, gc: boolean) => (await child.ask!<{ rss: number }>({ type: 'usage', gc })).rss / 1024 / 1024;
  // Per process, in MB: after a full collection at start (after the warm-up) and at end, the highest seen, every 5 s.
  const rss: Record<string, { start: number; end: number; max: number; growthPct: number; samples: number[] }> = {};
  for (const [name, child] of measured) {
    const start = await rssOf(child, true);
    rss[name] = { start, end: start, max: start, growthPct: 0, samples: [] };
  }
  const sampler = setInterval(() => {
    for (const [name, child] of measured) void rssOf(child, false).then((value) => rss[name]!.samples.push(value), () => undefined);
  }, 5000);
  sampler.unref();
  say(`load: ${options.durationS} s at ${options.connections} connections (${split.legacy} legacy mode, ${split.api2} api2 mode)`);
  const answers: Answers = {};
  const runs = await load(options.durationS, answers);
  clearInterval(sampler);
  const round = (value: number) => Math.round(value * 10) / 10;
  for (const [name, child] of measured) {
    const r = rss[name]!;
    r.end = await rssOf(child, true);
    r.max = round(Math.max(r.start, r.end, ...r.samples));
    r.growthPct = round(((r.end - r.start) / r.start) * 100);
    [r.start, r.end, r.samples] = [round(r.start), round(r.end), r.samples.map(round)];
  }

  const sum = (pick: (m: (typeof runs)[number]) => number) => runs.reduce((total, m) => total + pick(m), 0);
  const latencies = Float64Array.from(runs.flatMap((m) => [...m.latencies])).sort();
  const answered2xx = (op: string, mode: Mode) => Object.keys(answers[op]?.[mode] ?? {}).some((status) => status.startsWith('2'));
  const uncovered = OPERATION_IDS.flatMap((op) => live.filter((mode) => !answered2xx(op, mode)).map((mode) => `${op} (${mode})`));
  const errors = sum((m) => m.errors);
  return {
    durationS: options.durationS,
    connections: split, // per gateway
    requests: sum((m) => m.requests),
    reqPerSec: Math.round(sum((m) => m.requests) / options.durationS),
    errors, // connection errors (timeouts included) + answers not 2xx
    timeouts: sum((m) => m.timeouts),
    non2xx: sum((m) => m.non2xx),
    p50Ms: Math.round(percentile(latencies, 50) * 100) / 100,
    p99Ms: Math.round(percentile(latencies, 99) * 100) / 100,
    answers,
    uncovered, // operations never answered 2xx in a mode
    rssMb: rss,
    rssTargetPct: RSS_TARGET_PCT,
    pass: { errors: errors === 0, coverage: uncovered.length === 0, rss: Object.entries(rss).every(([name, r]) => !name.startsWith('gateway') || r.growthPct < RSS_TARGET_PCT) },
  };
}

export function renderSoak(report: SoakReport): string {
  const pad = (text: string | number, width: number) => String(text).padEnd(width);
  const show = (statuses: Record<string, number> | undefined) => Object.entries(statuses ?? {}).sort().map(([status, n]) => `${status}×${n}`).join(' ') || '-';
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  return [
    `soak: ${report.durationS} s at ${report.connections.legacy + report.connections.api2} connections (${report.connections.legacy} legacy mode, ${report.connections.api2} api2 mode), cache on, every operation`,
    `requests   ${report.requests} (${report.reqPerSec}/s)`,
    `errors     ${report.errors} (timeouts ${report.timeouts}, not 2xx ${report.non2xx})`,
    `latency    p50 ${report.p50Ms} ms, p99 ${report.p99Ms} ms`,
    '',
    `${pad('operation', 20)}${pad('legacy mode', 28)}api2 mode`,
    ...OPERATION_IDS.map((op) => `${pad(op, 20)}${pad(show(report.answers[op]?.legacy), 28)}${show(report.answers[op]?.api2)}`),
    '',
    `${pad('RSS (MB, after GC)', 20)}${pad('start', 10)}${pad('end', 10)}${pad('max', 10)}growth`,
    ...Object.entries(report.rssMb).map(([name, r]) => `${pad(name, 20)}${pad(r.start, 10)}${pad(r.end, 10)}${pad(r.max, 10)}${r.growthPct >= 0 ? '+' : ''}${r.growthPct} %`),
    ...Object.entries(report.rssMb).map(([name, r]) => `${pad(name, 20)}RSS every 5 s: ${r.samples.join(' ') || '-'}`),
    '',
    `errors: ${report.errors} (target 0) ${verdict(report.pass.errors)}`,
    `operations answered 2xx in both modes: ${report.uncovered.length === 0 ? 'all' : `missing ${report.uncovered.join(', ')}`} ${verdict(report.pass.coverage)}`,
    `gateway RSS growth (target < ${report.rssTargetPct} %): ${verdict(report.pass.rss)}${report.durationS < 60 ? ' (a short run: indicative only)' : ''}`,
  ].join('\n');
}

export async function soak(options: Options): Promise<Outcome> {
  const report = await runSoak(options);
  process.stdout.write(`${renderSoak(report)}\n`);
  return { json: report, code: report.pass.errors && report.pass.coverage ? 0 : 1 };
}

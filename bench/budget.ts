/**
 * The gateway's own work on a request, part by part, against its budget (issue 47): the main
 * thread's self time in the gateway's own modules (src/, mappings/) of a CPU profile, grouped by
 * the part of the request each module does. docs/benchmarks-anchors.md ("A budget per part") holds
 * the table and says why each part that misses its budget does.
 *
 * DECISION (the split): a module belongs to one part, by its path (the first rule that matches);
 * `hot-path` (the helpers every part calls) and a module no rule names are counted in the part of
 * the nearest calling frame that has one, so a helper's cost lands on the part that used it. Time
 * in libraries and Node (the HTTP parser, the socket write, hono's router) is not the gateway's own
 * and is not in any part: the anchors (bare Hono, the floor) pay it too.
 *
 * Budgets are µs per request on the bench's machine, where bare Hono costs BARE_HONO_US; on another
 * machine (or a busier hour) they scale by the bare Hono anchor measured in the same run.
 * DECISION: that anchor is profiled as the target is (the same sampling profilers, the same load),
 * and its process CPU per request is the yardstick: the profilers' cost lands on the target's
 * self times and on the anchor alike. A bare Hono measured without them (as `npm run bench` does)
 * read 18-34 µs a request on 2026-11-28 and 40 µs profiled, while a profiled HIT's CPU was ~2x its
 * unprofiled one: scaling a profile by an unprofiled anchor would hold the parts to about half
 * their budget.
 */

/** Bare Hono's CPU per request on the bench's machine when the budgets were set (issue 47's table, 2026-11-27). */
export const BARE_HONO_US = 66.9;

export type Budgeted = 'hit' | 'pass-through';

interface PartRule {
  readonly part: string;
  /** Module paths relative to src/ (mappings/ ones start with `mappings/`), as bench/profile.ts names them. */
  readonly modules: RegExp;
  /** µs per request on the bench's machine, on a cache HIT and on a pass-through. */
  readonly budget: Readonly<Record<Budgeted, number>>;
}

/** In the order a request meets them; the first rule whose pattern matches a module wins. */
export const PART_RULES: readonly PartRule[] = [
  {
    part: 'live counters and metrics',
    modules: /^(migration\/(live-|blockers|latency-buckets)|observability\/node\/prometheus)/,
    budget: { hit: 2, 'pass-through': 2 },
  },
  {
    part: 'usage line',
    modules: /^(observability\/|gateway\/request-record|request\/identity|http\/client-program)/,
    budget: { hit: 6, 'pass-through': 6 },
  },
  {
    part: 'deprecation and trace headers',
    modules: /^(pipeline\/deprecation-signal|config\/deprecation|request\/trace-context)/,
    budget: { hit: 1.5, 'pass-through': 1.5 },
  },
  {
    part: 'canonical request and key',
    modules: /^(request\/(canonicalise|canonical-request|pairs|encoding|body-params|forward-request|hmac)|legacy\/(param-rules|basic-auth)|cache\/(page-key|secret-hasher))/,
    budget: { hit: 4, 'pass-through': 6 },
  },
  {
    part: 'page lookup',
    modules: /^(cache\/|pipeline\/(page-stage|page-fill|stored-answer|invalidation-stage))/,
    budget: { hit: 3, 'pass-through': 1 },
  },
  {
    part: 'upstream exchange',
    modules: /^(upstream\/|traffic\/|api2\/|mappings\/|pipeline\/(legacy-side|choose-side|answerer|shadow-stage))/,
    budget: { hit: 0, 'pass-through': 8 },
  },
  {
    part: 'answer writing',
    modules: /^(http\/(answer|gateway-error)|node\/answers-on-socket|legacy\/(answer-policy|answer-terms))/,
    budget: { hit: 2, 'pass-through': 3 },
  },
  {
    part: 'arrival and routing',
    modules: /^(node\/|gateway\/|app$|pipeline\/|http\/|catalogue\/|request\/|legacy\/answer-body|migration\/rollout\/|config\/)/,
    budget: { hit: 6, 'pass-through': 6 },
  },
];

/** What no rule names and no calling frame places (a module not listed above, called from outside the gateway). */
export const OTHER_PART = 'other own code';
const OTHER_BUDGET: Readonly<Record<Budgeted, number>> = { hit: 0.5, 'pass-through': 1.5 };

/** Counted in the part of the nearest calling frame that has one. */
const HELPERS = /^hot-path$/;

/** The part a module of the gateway's own belongs to; undefined for a helper (its caller's part). */
export function partOfModule(module: string): string | undefined {
  if (HELPERS.test(module)) return undefined;
  return PART_RULES.find((rule) => rule.modules.test(module))?.part;
}

/** The budget of a part in µs per request on the bench's machine. */
export function budgetOf(part: string, kind: Budgeted): number {
  return PART_RULES.find((rule) => rule.part === part)?.budget[kind] ?? OTHER_BUDGET[kind];
}

/** The whole budget of the gateway's own work: HIT 25 µs, pass-through 35 µs (issue 47). */
export function totalBudget(kind: Budgeted): number {
  return PART_RULES.reduce((sum, rule) => sum + rule.budget[kind], OTHER_BUDGET[kind]);
}

/** Which budget a target is held to: the cache gateways to a HIT's, the legacy ones to a pass-through's; others to none. */
export function budgetedAs(target: string): Budgeted | undefined {
  if (target.startsWith('gw-cache') || target.startsWith('cache-hit')) return 'hit';
  if (target.startsWith('gw-legacy') || target.startsWith('passthrough')) return 'pass-through';
  return undefined;
}

export interface PartTime {
  readonly part: string;
  readonly us: number;
  /** Scaled to this run's machine; undefined when the target has no budget. */
  readonly budgetUs: number | undefined;
}

/**
 * Per part, µs per request, in the rules' order (then OTHER_PART): `own` is µs per part summed by
 * the caller, `scale` this run's bare Hono over BARE_HONO_US.
 */
export function partTable(own: ReadonlyMap<string, number>, requests: number, kind: Budgeted | undefined, scale: number): PartTime[] {
  const names = [...PART_RULES.map((rule) => rule.part), OTHER_PART];
  return names.map((part) => ({ part, us: (own.get(part) ?? 0) / requests, budgetUs: kind ? budgetOf(part, kind) * scale : undefined }));
}

/** The table as printed: each part beside its budget, then the sum beside the whole budget. */
export function partLines(rows: readonly PartTime[], kind: Budgeted | undefined, scale: number, anchorUs: number | undefined): string[] {
  const verdict = (us: number, budget: number | undefined) => (budget === undefined ? '' : us <= budget ? '  within' : '  OVER');
  const line = (name: string, us: number, budget: number | undefined) =>
    `  ${us.toFixed(1).padStart(6)} µs${budget === undefined ? '' : ` of ${budget.toFixed(1).padStart(5)}`}${verdict(us, budget)}  ${name}`;
  const sum = rows.reduce((total, row) => total + row.us, 0);
  const whole = kind ? totalBudget(kind) * scale : undefined;
  const head = kind
    ? `the gateway's own work per request, by part, against the ${kind === 'hit' ? 'cache HIT' : 'pass-through'} budget ` +
      (anchorUs === undefined ? '(not scaled: no bare Hono anchor measured)' : `(scaled ${scale.toFixed(2)}x: bare Hono ${anchorUs.toFixed(1)} µs/request now, profiled alike; ${BARE_HONO_US} on the bench's machine)`)
    : "the gateway's own work per request, by part (no budget for this target)";
  return [head, ...rows.map((row) => line(row.part, row.us, row.budgetUs)), line('sum of the parts', sum, whole)];
}

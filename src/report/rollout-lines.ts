/**
 * Rollout decisions in the usage log (`"msg":"rollout"`, written by src/node/server.ts from the
 * rollout runner's events, docs/rollout.md): each move, failed gate, operator action, plan change
 * and freeze, with its reason and the gates and counts that decided it.
 *
 * A line is read into one `RolloutLine` (its known keys only, in a fixed order). The ClickHouse
 * ingest stores that line whole as JSON text in the declared `rollout` column
 * (src/observability/log-schema.ts ROLLOUT_FIELDS) and the ClickHouse source reads it back: both
 * sources hand the report the same lines, and build-report.ts puts them in the same order.
 */
import { keepEvents } from '../migration/rollout/repeats.js';
import type { GateResult, Position } from '../migration/rollout/state.js';

export interface RolloutLine {
  /** When it was decided: the line's time (the usage log writes the decision as it is made). */
  readonly time: string;
  readonly operation: string;
  /** start, promote, gate-failed, rollback, pause, resume, plan-changed, plan-removed, frozen, unfrozen. */
  readonly kind: string;
  /** A step of the plan (`shadow`, a percent, a cohort of named clients) or `legacy`. */
  readonly from: Position;
  readonly to: Position;
  readonly status: string;
  /** controller, operator or config. */
  readonly by: string;
  /** The operator's name, when an operator's action gave one. */
  readonly operator?: string;
  readonly reason: string;
  /** The gates judged at this decision (the evidence), when it was judged. */
  readonly gates: readonly GateResult[];
  /** The counts the gates were judged on (`step.compared`, `recent.api2Errors`...). */
  readonly evidence: Readonly<Record<string, number | null>>;
  /** When the step the route is at after this decision began (epoch ms), from writers that say it. */
  readonly stepSince?: number;
  /** A repeated identical failure (src/migration/rollout/repeats.ts): the evaluations it stands for, the first one's time and the latest's. */
  readonly count?: number;
  readonly since?: string;
  readonly last?: string;
}

/** One operation's rollout decisions, in time order. */
export interface RolloutReport {
  readonly operation: string;
  readonly lines: readonly RolloutLine[];
}

const text = (value: unknown): value is string => typeof value === 'string' && value !== '';
const cohort = (value: unknown): boolean => {
  const step = value as { clients?: unknown; percent?: unknown } | null;
  return typeof step === 'object' && step !== null && Array.isArray(step.clients) && step.clients.every(text) && typeof step.percent === 'number';
};
const position = (value: unknown): value is Position => text(value) || (typeof value === 'number' && Number.isFinite(value)) || cohort(value);

/** The decision on a `"msg":"rollout"` line, or the name of the first key that is not what it should be. */
export function rolloutLineOf(raw: Record<string, unknown>): RolloutLine | string {
  const { operation, kind, from, to, status, by, reason } = raw;
  // The line's time: epoch ms (pino), or an ISO time from another writer.
  const time = text(raw['time']) ? raw['time'] : typeof raw['time'] === 'number' ? new Date(raw['time']).toISOString() : undefined;
  if (time === undefined || Number.isNaN(Date.parse(time))) return 'time';
  if (!text(operation)) return 'operation';
  if (!text(kind)) return 'kind';
  if (!position(from)) return 'from';
  if (!position(to)) return 'to';
  if (!text(status)) return 'status';
  if (!text(by)) return 'by';
  if (typeof reason !== 'string') return 'reason';
  const operator = raw['operator'];
  if (operator !== undefined && typeof operator !== 'string') return 'operator';
  const gates = raw['gates'] ?? [];
  if (!Array.isArray(gates) || !gates.every(isGate)) return 'gates';
  const evidence = raw['evidence'] ?? {};
  if (typeof evidence !== 'object' || evidence === null || Array.isArray(evidence) || !Object.values(evidence).every((v) => v === null || typeof v === 'number')) return 'evidence';
  const stepSince = raw['stepSince'];
  if (stepSince !== undefined && !(typeof stepSince === 'number' && Number.isFinite(stepSince))) return 'stepSince';
  const { count, since, last } = raw;
  if (count !== undefined && !(typeof count === 'number' && Number.isInteger(count) && count >= 1)) return 'count';
  if (since !== undefined && !(text(since) && !Number.isNaN(Date.parse(since)))) return 'since';
  if (last !== undefined && !(text(last) && !Number.isNaN(Date.parse(last)))) return 'last';
  return {
    time: new Date(Date.parse(time)).toISOString(),
    operation,
    kind,
    from,
    to,
    status,
    by,
    ...(text(operator) ? { operator } : {}),
    reason,
    gates: gates.map(gateOf),
    evidence: evidence as Record<string, number | null>,
    ...(typeof stepSince === 'number' ? { stepSince } : {}),
    ...(typeof count === 'number' ? { count } : {}),
    ...(text(since) ? { since } : {}),
    ...(text(last) ? { last } : {}),
  };
}

const num = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));

function isGate(value: unknown): value is GateResult {
  if (typeof value !== 'object' || value === null) return false;
  const g = value as Record<string, unknown>;
  return text(g['gate']) && text(g['window']) && text(g['outcome']) && num(g['measured']) && num(g['bound']) && typeof g['samples'] === 'number';
}

/** A gate's known keys, in a fixed order; its details (n, k, the bounds...) when the line has them all, well formed. */
function gateOf(g: GateResult): GateResult {
  const base: GateResult = { gate: g.gate, window: g.window, outcome: g.outcome, measured: g.measured, bound: g.bound, samples: g.samples };
  const { method, adverse, lower, upper, confidence, needed, toPass, reference } = g;
  const referenceOk = reference === null || (typeof reference === 'object' && reference !== undefined && [reference.samples, reference.adverse, reference.rate].every((v) => typeof v === 'number' && Number.isFinite(v)));
  if (!text(method) || ![adverse, lower, upper, confidence, toPass].every(num) || typeof needed !== 'number' || !referenceOk) return base;
  const { races } = g;
  return { ...base, method, adverse: adverse ?? null, lower: lower ?? null, upper: upper ?? null, confidence: confidence ?? null, needed, toPass: toPass ?? null, reference: reference ?? null, ...(typeof races === 'number' && Number.isFinite(races) ? { races } : {}) };
}

/** A failed gate is judged before what it decides (a rollback or pause at the same instant). */
const KIND_ORDER = ['start', 'plan-changed', 'plan-removed', 'frozen', 'unfrozen', 'restored', 'gate-failed', 'rollback', 'pause', 'promote', 'resume', 'holds-nobody'];
const rank = (kind: string): number => {
  const found = KIND_ORDER.indexOf(kind);
  return found < 0 ? KIND_ORDER.length : found;
};

/**
 * Per operation (by name), each decision in time order; same-instant decisions in the order they
 * were made; a repeated identical failure as one line with its count, as the gateway keeps it
 * (the log has a line per evaluation, each carrying the count so far).
 */
export function rolloutReports(lines: Iterable<RolloutLine>): RolloutReport[] {
  const byOperation = new Map<string, Array<{ line: RolloutLine; key: string }>>();
  for (const line of lines) {
    const list = byOperation.get(line.operation) ?? [];
    list.push({ line, key: JSON.stringify(line) });
    byOperation.set(line.operation, list);
  }
  return [...byOperation.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([operation, list]) => ({
      operation,
      lines: keepEvents([], list.sort((a, b) => a.line.time.localeCompare(b.line.time) || rank(a.line.kind) - rank(b.line.kind) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((x) => x.line), Infinity).events,
    }));
}

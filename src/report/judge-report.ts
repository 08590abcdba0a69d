/**
 * The report's judgements: the one judgement (src/migration/judgement/judge.ts) of every
 * catalogued operation (and of the uncatalogued calls, when any), on the evidence of one config
 * version (the latest request line's, unless `--config-version` names another) and, for a
 * rolled-out route, of its step in force alone (the lines' `stepSince`; lines of older writers
 * by the mode of that step); the rollout's state and history from the
 * log's rollout lines. Files and ClickHouse fill the same counts, so both give the same states.
 * Each operation is judged on its plan's gates when the config is given (`--config`), else on its
 * default plan's (src/migration/judgement/default-plan.ts), and the report says which.
 */
import { OPERATIONS } from '../catalogue/operations.js';
import { ROUTE_MODES } from '../config/schema.js';
import { percentOf } from '../config/rollout.js';
import type { RouteMode } from '../config/schema.js';
import { judgeOperation } from '../migration/judgement/judge.js';
import { defaultPlan } from '../migration/judgement/default-plan.js';
import type { Judgement, RolloutFacts } from '../migration/judgement/types.js';
import { EMPTY_SIDE, gateEvidence } from '../migration/readiness.js';
import type { Evidence } from '../migration/readiness.js';
import type { Position } from '../migration/rollout/state.js';
import type { RolloutLine, RolloutReport } from './rollout-lines.js';
import type { ScopedEvidence } from './scoped-evidence.js';
import type { OperationCounts } from '../migration/live-tally.js';
import type { PlansByOperation } from '../migration/rollout/client-standing.js';

/** Which gates the report judged on: each plan's (`--config` given), or every operation's default plan's. */
export function gatesUsed(plans: PlansByOperation | undefined): string {
  return plans
    ? "each operation's plan in --config (its default plan's where it has none), as /admin/rollout judges it"
    : "each operation's default plan (no --config given: a route's own plan may have other gates; give --config to judge on them)";
}

export interface ReportJudgement {
  readonly judgement: Judgement;
  readonly evidence: Evidence;
  /** A rolled-out route's step whose lines were judged (its start, epoch ms); undefined otherwise. */
  readonly step: number | undefined;
}

const STATUSES = new Set(['waiting', 'running', 'paused', 'rolled-back']);
/** Decisions that say nothing of where the route is. */
const NOTES = new Set(['holds-nobody']);

/** The mode a step puts in force (docs/rollout.md "Steps and what they expose"). */
export function modeOfPosition(at: Position): RouteMode {
  return at === 'legacy' ? 'legacy' : at === 'shadow' ? 'shadow' : (percentOf(at) ?? 0) >= 100 ? 'api2' : 'canary';
}

/** The rollout's facts from its lines (oldest first), or undefined when it has none or its plan was removed. */
export function rolloutFactsOf(report: RolloutReport | undefined): RolloutFacts | undefined {
  const lines = report?.lines ?? [];
  const last = [...lines].reverse().find((line) => !NOTES.has(line.kind));
  if (!last || last.kind === 'plan-removed' || !STATUSES.has(last.status)) return undefined;
  const freeze = [...lines].reverse().find((line) => line.kind === 'frozen' || line.kind === 'unfrozen');
  return {
    at: last.to,
    status: last.status as RolloutFacts['status'],
    reason: last.reason,
    frozen: freeze?.kind === 'frozen' ? freeze.reason : null,
    decisions: lines,
  };
}

/**
 * The step whose lines are judged: the latest the lines name, or a later one the last decision
 * started (a route that has just moved has no lines of its new step yet: no evidence, as the runner sees it).
 */
function stepInForce(named: number | undefined, decisions: readonly RolloutLine[]): number | undefined {
  const decided = [...decisions].reverse().find((line) => line.stepSince !== undefined)?.stepSince;
  return decided !== undefined && (named === undefined || decided > named) ? decided : named;
}

/**
 * Legacy's last baseline with enough of its own answers, as the rollout state keeps it: from the
 * newest decision whose step counts had `minSamples` legacy answers (its `step.*` evidence).
 */
function baselineOf(lines: readonly RolloutLine[], minSamples: number): { errorRate: number; p95Ms: number | null } | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const evidence = lines[i]!.evidence;
    const own = (evidence['step.legacyAnswers'] ?? 0) - (evidence['step.fallbacks'] ?? 0);
    if (own >= minSamples && own > 0) return { errorRate: (evidence['step.legacyErrors'] ?? 0) / own, p95Ms: evidence['step.legacyP95Ms'] ?? null };
  }
  return undefined;
}

/** Lines of an older writer name no mode in force: api2 answers say api2, comparisons shadow, else legacy. */
function guessedMode(counts: OperationCounts | undefined): RouteMode {
  if (!counts) return 'legacy';
  return counts.api2.requests > 0 ? 'api2' : counts.shadow.compared + counts.shadow.skipped > 0 ? 'shadow' : 'legacy';
}

export function judgeReport(scoped: ScopedEvidence, rollouts: readonly RolloutReport[], config: string | undefined, breakerOpens: number | null, withUncatalogued: boolean, plans?: PlansByOperation): ReportJudgement[] {
  const ops = OPERATIONS.map((op) => ({ id: op.id as string, write: !op.safe }));
  if (withUncatalogued) ops.push({ id: 'uncatalogued', write: false });
  return ops.map(({ id, write }) => {
    const decisions = rollouts.find((r) => r.operation === id);
    const facts = rolloutFactsOf(decisions);
    const seen = scoped.modeOf(config, id);
    const mode: RouteMode = facts ? modeOfPosition(facts.at) : (ROUTE_MODES as readonly string[]).includes(seen ?? '') ? (seen as RouteMode) : guessedMode(scoped.countsOf(config, id, undefined));
    // A rolled-out route: its latest step's evidence alone, as the rollout runner judges it.
    const step = facts ? stepInForce(scoped.stepOf(config, id), decisions?.lines ?? []) : undefined;
    const counts = scoped.countsOf(config, id, mode, step);
    const evidence: Evidence = counts
      ? { operation: id, legacy: counts.legacy, api2: counts.api2, fallbacks: counts.fallbacks, shadow: counts.shadow, breakerOpens }
      : { operation: id, legacy: EMPTY_SIDE, api2: EMPTY_SIDE, fallbacks: 0, shadow: { compared: 0, agreed: 0, differed: 0, raced: 0, unavailable: 0, skipped: 0 }, breakerOpens };
    // The plan's gates, as the runner judges them (the default plan's without one, or without --config).
    const plan = plans?.[id]?.rollout;
    const baseline = facts ? baselineOf(decisions?.lines ?? [], plan?.minSamples ?? defaultPlan(write).minSamples) : undefined;
    const judgement = judgeOperation({ operation: id, mode, write, plan, rollout: facts, evidence: gateEvidence(evidence), baseline });
    return { judgement, evidence, step };
  });
}

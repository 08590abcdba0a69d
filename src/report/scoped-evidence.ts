/**
 * The evidence the report judges on, scoped to what is in force: counted per config version (the
 * line's `config` hash), operation, route mode in force (`routeMode`) and, on a rolled-out route,
 * step in force (`stepSince`, when the step began: the rollout runner judges that step's evidence
 * alone), in the live counters' flat encoding (src/migration/live-tally.ts), so the
 * report, ClickHouse and the live console read counts, fixed latency buckets and p95 alike.
 * Memory: one small tally per (config, operation, mode, step), never per line.
 */
import { countsOf, tallyAnswer, tallyOneAnswer, tallyShadowOutcome } from '../migration/live-tally.js';
import type { OperationCounts, Tally } from '../migration/live-tally.js';
import { isOperationId } from '../catalogue/operations.js';
import { merge } from '../migration/live-tally.js';

/** The key a line is tallied under: its mode in force, and its step's start when it names one (`api2@1767607200000`). */
export function stepKey(routeMode: string | undefined, stepSince: number | undefined): string {
  return stepSince === undefined ? (routeMode ?? '') : `${routeMode ?? ''}@${stepSince}`;
}

function partsOf(key: string): { mode: string; since: number | undefined } {
  const at = key.indexOf('@');
  return at < 0 ? { mode: key, since: undefined } : { mode: key.slice(0, at), since: Number(key.slice(at + 1)) };
}

interface ModeTallies {
  /** By step key (stepKey): the mode in force, and the step's start when the lines name it. */
  readonly byMode: Map<string, Tally>;
  /** The latest step's start named by a line (0: none): the step in force, whose evidence alone is judged. */
  latestStep: number;
  /** The route mode of the latest line (its time), ties to the greater name: every source picks alike. */
  lastMode: string | undefined;
  lastTime: number;
}

export class ScopedEvidence {
  /**
   * `stepBucketMs` (the live counters' bucket of the config, when known): a step's lines before its
   * first whole bucket are not judged, as the rollout runner judges whole buckets after a step began.
   */
  constructor(private readonly stepBucketMs?: number) {}

  /** Whether a line of this step key at `time` falls before the step's first whole counter bucket. */
  private beforeWholeBucket(routeMode: string, time: number): boolean {
    if (this.stepBucketMs === undefined) return false;
    const { since } = partsOf(routeMode);
    return since !== undefined && time < Math.ceil(since / this.stepBucketMs) * this.stepBucketMs;
  }

  /** config hash → operation → mode in force → tally. */
  readonly configs = new Map<string, Map<string, ModeTallies>>();
  /** The config of the latest request line (ties to the greater hash). */
  latestConfig: string | undefined;
  private latestTime = -Infinity;

  private tallies(config: string, operation: string): ModeTallies {
    let ops = this.configs.get(config);
    if (!ops) this.configs.set(config, (ops = new Map()));
    let found = ops.get(operation);
    if (!found) ops.set(operation, (found = { byMode: new Map(), latestStep: 0, lastMode: undefined, lastTime: -Infinity }));
    return found;
  }

  private tally(config: string, operation: string, routeMode: string): Tally {
    const found = this.tallies(config, operation);
    let tally = found.byMode.get(routeMode);
    if (!tally) found.byMode.set(routeMode, (tally = new Map()));
    return tally;
  }

  /** `count` requests answered by `side` (latency in the sketch bucket's fixed bucket, `latencyIndex`), seen at `time` at the latest. */
  addAnswers(config: string, operation: string, routeMode: string, side: string, time: number, counts: { n: number; status4xx: number; status5xx: number; fallbacks: number; latency: ReadonlyMap<number, number> }): void {
    this.seen(config, operation, routeMode, time);
    if (!isOperationId(operation) || this.beforeWholeBucket(routeMode, time)) return;
    tallyAnswer(this.tally(config, operation, routeMode), operation, side, counts);
  }

  /** One request line. */
  addRecord(config: string, operation: string, routeMode: string, side: string, time: number, status: number, latencyMs: number | undefined, fallback: boolean): void {
    this.seen(config, operation, routeMode, time);
    if (!isOperationId(operation) || this.beforeWholeBucket(routeMode, time)) return;
    tallyOneAnswer(this.tally(config, operation, routeMode), operation, side, status, latencyMs, fallback);
  }

  addShadow(config: string, operation: string, routeMode: string, outcome: string, time: number, count = 1): void {
    this.seen(config, operation, routeMode, time);
    if (!isOperationId(operation) || this.beforeWholeBucket(routeMode, time)) return;
    tallyShadowOutcome(this.tally(config, operation, routeMode), operation, outcome, count);
  }

  private seen(config: string, operation: string, routeMode: string, time: number): void {
    if (time > this.latestTime || (time === this.latestTime && config > (this.latestConfig ?? ''))) {
      this.latestTime = time;
      this.latestConfig = config;
    }
    const found = this.tallies(config, operation);
    const { mode, since } = partsOf(routeMode);
    if (since !== undefined && since > found.latestStep) found.latestStep = since;
    if (mode !== '' && (time > found.lastTime || (time === found.lastTime && mode > (found.lastMode ?? '')))) {
      found.lastTime = time;
      found.lastMode = mode;
    }
  }

  /** The route mode in force of an operation's latest line in that config version. */
  modeOf(config: string | undefined, operation: string): string | undefined {
    return config === undefined ? undefined : this.configs.get(config)?.get(operation)?.lastMode;
  }

  /** When the latest step named by an operation's lines in that config version began; undefined when none names one. */
  stepOf(config: string | undefined, operation: string): number | undefined {
    const latest = config === undefined ? 0 : (this.configs.get(config)?.get(operation)?.latestStep ?? 0);
    return latest > 0 ? latest : undefined;
  }

  /** Every step an operation's lines name in that config version, oldest first, with its mode in force. */
  stepsOf(config: string | undefined, operation: string): { since: number; mode: string }[] {
    const found = config === undefined ? undefined : this.configs.get(config)?.get(operation);
    const steps = new Map<number, string>();
    for (const key of found?.byMode.keys() ?? []) {
      const { mode, since } = partsOf(key);
      if (since !== undefined && (!steps.has(since) || mode > steps.get(since)!)) steps.set(since, mode);
    }
    return [...steps].sort((a, b) => a[0] - b[0]).map(([since, mode]) => ({ since, mode }));
  }

  /**
   * An operation's counts in one config version and mode in force; with `step`, of that step alone
   * (as the rollout runner judges). Lines of older writers count as they did: without a mode in every
   * mode, without a step in their mode.
   */
  countsOf(config: string | undefined, operation: string, routeMode: string | undefined, step?: number): OperationCounts | undefined {
    if (config === undefined || !isOperationId(operation)) return undefined;
    const found = this.configs.get(config)?.get(operation);
    if (!found) return undefined;
    const sum: Tally = new Map();
    for (const [key, tally] of found.byMode) {
      const { mode, since } = partsOf(key);
      const counted = mode === '' || (step !== undefined && since !== undefined ? since === step : mode === routeMode);
      if (counted) merge(sum, tally);
    }
    return countsOf(sum, operation);
  }
}

/**
 * The evidence the report judges on, scoped to what is in force: counted per config version (the
 * line's `config` hash), operation and route mode in force (`routeMode`, the step's mode for a
 * rolled-out route), in the live counters' flat encoding (src/migration/live-tally.ts), so the
 * report, ClickHouse and the live console read counts, fixed latency buckets and p95 alike.
 * Memory: one small tally per (config, operation, mode), never per line.
 */
import { countsOf, tallyAnswer, tallyOneAnswer, tallyShadowOutcome } from '../migration/live-tally.js';
import type { OperationCounts, Tally } from '../migration/live-tally.js';
import { isOperationId } from '../catalogue/operations.js';
import { merge } from '../migration/live-tally.js';

interface ModeTallies {
  readonly byMode: Map<string, Tally>;
  /** The route mode of the latest line (its time), ties to the greater name: every source picks alike. */
  lastMode: string | undefined;
  lastTime: number;
}

export class ScopedEvidence {
  /** config hash → operation → mode in force → tally. */
  readonly configs = new Map<string, Map<string, ModeTallies>>();
  /** The config of the latest request line (ties to the greater hash). */
  latestConfig: string | undefined;
  private latestTime = -Infinity;

  private tallies(config: string, operation: string): ModeTallies {
    let ops = this.configs.get(config);
    if (!ops) this.configs.set(config, (ops = new Map()));
    let found = ops.get(operation);
    if (!found) ops.set(operation, (found = { byMode: new Map(), lastMode: undefined, lastTime: -Infinity }));
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
    if (!isOperationId(operation)) return;
    tallyAnswer(this.tally(config, operation, routeMode), operation, side, counts);
  }

  /** One request line. */
  addRecord(config: string, operation: string, routeMode: string, side: string, time: number, status: number, latencyMs: number | undefined, fallback: boolean): void {
    this.seen(config, operation, routeMode, time);
    if (!isOperationId(operation)) return;
    tallyOneAnswer(this.tally(config, operation, routeMode), operation, side, status, latencyMs, fallback);
  }

  addShadow(config: string, operation: string, routeMode: string, outcome: string, time: number, count = 1): void {
    this.seen(config, operation, routeMode, time);
    if (!isOperationId(operation)) return;
    tallyShadowOutcome(this.tally(config, operation, routeMode), operation, outcome, count);
  }

  private seen(config: string, operation: string, routeMode: string, time: number): void {
    if (time > this.latestTime || (time === this.latestTime && config > (this.latestConfig ?? ''))) {
      this.latestTime = time;
      this.latestConfig = config;
    }
    const found = this.tallies(config, operation);
    if (routeMode !== '' && (time > found.lastTime || (time === found.lastTime && routeMode > (found.lastMode ?? '')))) {
      found.lastTime = time;
      found.lastMode = routeMode;
    }
  }

  /** The route mode in force of an operation's latest line in that config version. */
  modeOf(config: string | undefined, operation: string): string | undefined {
    return config === undefined ? undefined : this.configs.get(config)?.get(operation)?.lastMode;
  }

  /** An operation's counts in one config version and mode in force (lines without a mode, from older writers, count in every mode). */
  countsOf(config: string | undefined, operation: string, routeMode: string | undefined): OperationCounts | undefined {
    if (config === undefined || !isOperationId(operation)) return undefined;
    const found = this.configs.get(config)?.get(operation);
    if (!found) return undefined;
    const sum: Tally = new Map();
    for (const [mode, tally] of found.byMode) if (mode === '' || mode === routeMode) merge(sum, tally);
    return countsOf(sum, operation);
  }
}

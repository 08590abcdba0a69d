/**
 * The SQL of the migration report: each query counts in ClickHouse what the file reader counts
 * record by record (src/report/aggregate.ts), grouped so that the answers stay small (per
 * operation and mode, per client use, per timeline step, per latency value or bucket). `table`
 * is the table's name, or `name FINAL` to collapse duplicates not merged yet at read time
 * (exact, and several times slower on ClickHouse 18.16).
 */
import { MAX_BUCKETS, STEPS } from '../build-report.js';
import { BUCKETS, INV_LOG_GAMMA, KEY_OFFSET } from '../latency-sketch.js';
import { sqlString } from './clickhouse-http.js';

export interface Cell {
  readonly operation: string;
  readonly mode: string;
}

const requests = (table: string): string => `FROM ${table} WHERE msg = 'request'`;
const routed = (table: string): string => `${requests(table)} AND operation != 'unrouted'`;

/** The exact bits of the sketch's 1 / ln(gamma), so ClickHouse multiplies by the same double. */
function float64Literal(value: number): string {
  const bytes = new Uint8Array(new Float64Array([value]).buffer);
  return `reinterpretAsFloat64(unhex('${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}'))`;
}

/**
 * The latency sketch's bucket of a value (src/report/latency-sketch.ts addToBuckets; -1 for
 * values under 0.01 ms, which at 0.01 ms resolution means 0).
 */
const bucketOf = (column: string): string =>
  `if(${column} > 0, least(${BUCKETS - 1}, toInt32(ceil(log(toFloat64(${column})) * ${float64Literal(INV_LOG_GAMMA)})) + ${KEY_OFFSET}), -1)`;

/**
 * Per cell and latency bucket (the sketch's bucket, see bucketOf; -1 under 0.01 ms, -2 without a
 * latency): the cell's figures and the buckets of its latencies in one scan. A cell's figures are
 * the sums over its rows; a cell whose sketch keeps exact values asks exactLatencySql for them.
 * (Requests without a client are the routed requests less those of the client uses, usesSql: the
 * client column is not read here.)
 */
export const cellsSql = (table: string): string => `SELECT operation, mode, multiIf(isNull(latencyMs), -2, ${bucketOf('latencyMs')}) AS bucket, count(),
  countIf(status >= 500), countIf(status >= 400 AND status < 500),
  countIf(form = 'canonical'), countIf(form = 'regular'), countIf(form = 'malformed'),
  countIf(isNotNull(versionPrefix)), countIf(scheme = 'http'), countIf(insecure = 1),
  countIf(cache = 'HIT'), countIf(cache = 'MISS'), countIf(cache = 'STALE'), countIf(cache = 'BYPASS'),
  countIf(fallback = 1), min(time), max(time)
${requests(table)} GROUP BY operation, mode, bucket`;

export const otherFormsSql = (table: string): string => `SELECT operation, form, count()
${routed(table)} AND isNotNull(form) AND form NOT IN ('canonical', 'regular', 'malformed') GROUP BY operation, form`;

export const routeModesSql = (table: string): string => `SELECT operation, routeMode, count()
${routed(table)} AND isNotNull(routeMode) GROUP BY operation, routeMode`;

/**
 * Requests per cell and timeline step, each step counted at its first minute. The step is chosen
 * in the query (a scalar subquery over the requests' first and last minute) the way
 * build-report.ts timelineStep chooses it, and returned with each row for the caller to check.
 */
export const minutesSql = (table: string): string => `WITH (SELECT arrayFirst(s -> ceil(span / s) <= ${MAX_BUCKETS}, [${STEPS.join(', ')}]) FROM (
  SELECT intDiv(max(time), 60000) - intDiv(min(time), 60000) + 1 AS span ${requests(table)}
)) AS chosen, if(chosen = 0, ${STEPS[STEPS.length - 1]}, chosen) AS step
SELECT operation, mode, step, intDiv(intDiv(time, 60000), step) * step AS minute, count()
${requests(table)} GROUP BY operation, mode, minute`;

/** Requests per cell and timeline step (`step` minutes), each step counted at its first minute. */
export const minutesAtStepSql = (table: string, step: number): string => `SELECT operation, mode, ${step}, intDiv(intDiv(time, 60000), ${step}) * ${step} AS minute, count()
${requests(table)} GROUP BY operation, mode, minute`;

const inCells = (cells: readonly Cell[]): string => `(operation, mode) IN (${cells.map((c) => `(${sqlString(c.operation)}, ${sqlString(c.mode)})`).join(', ')})`;

/** Each latency value and how often, for the cells whose sketch keeps exact values. */
export const exactLatencySql = (table: string, cells: readonly Cell[]): string => `SELECT operation, mode, toString(latencyMs) AS ms, count()
${routed(table)} AND isNotNull(latencyMs) AND ${inCells(cells)} GROUP BY operation, mode, ms`;

/**
 * Per client use (the fields aggregate.ts tells uses apart by), with its first and last time, and
 * the label of its latest labelled record and that record's time (NULL when none has a label).
 * The label is picked as the file reader picks it (aggregate.ts `takeLabel`): latest time, then greatest label.
 * Then the use's answers with the deprecation signal, the first of them and its signals (aggregate.ts `addTold`).
 */
export const usesSql = (table: string): string => `SELECT client, operation, method, if(operation = 'uncatalogued', pathTemplate, NULL) AS template,
  mode, form, versionPrefix, scheme, insecure, count(), min(time), max(time),
  argMaxIf(clientLabel, (time, ifNull(clientLabel, '')), isNotNull(clientLabel)), if(countIf(isNotNull(clientLabel)) > 0, maxIf(time, isNotNull(clientLabel)), NULL),
  countIf(insecure = 1 AND method = 'GET' AND jsonBy = 'content-type'),
  countIf(isNotNull(deprecation)), minIf(time, isNotNull(deprecation)), groupUniqArrayIf(ifNull(deprecation, ''), isNotNull(deprecation))
${routed(table)} AND isNotNull(client) GROUP BY client, operation, method, template, mode, form, versionPrefix, scheme, insecure`;

/** The client section's counts (src/report/client-facts.ts): per client, operation and side (fallback apart), the answers and the 5xx. */
export const clientSidesSql = (table: string): string => `SELECT client, operation, if(fallback = 1, 'fallback', mode) AS side, count(), countIf(status >= 400 AND status < 500), countIf(status >= 500)
${routed(table)} AND isNotNull(client) GROUP BY client, operation, side`;

/** Per client, its requests per client program (the usage line's `clientProgram`). */
export const clientProgramsSql = (table: string): string => `SELECT client, clientProgram, count()
${routed(table)} AND isNotNull(client) AND isNotNull(clientProgram) GROUP BY client, clientProgram`;

export const uncataloguedSql = (table: string): string => `SELECT method, ifNull(pathTemplate, '(unknown)') AS template, count()
${requests(table)} AND operation = 'uncatalogued' GROUP BY method, template`;

/** The api2 circuit breaker's transitions to open (`"msg":"breaker"` lines), as aggregate.ts `addBreaker` counts them. */
export const breakerOpensSql = (table: string): string => `SELECT countIf(upstream = 'api2' AND \`to\` = 'open') FROM ${table} WHERE msg = 'breaker'`;

const shadows = (table: string): string => `FROM ${table} WHERE msg = 'shadow'`;

export const shadowOutcomesSql = (table: string): string => `SELECT operation, count(), countIf(outcome = 'equal'), countIf(outcome = 'differ'), countIf(outcome = 'skipped'), countIf(outcome = 'race'), countIf(outcome = 'unavailable')
${shadows(table)} GROUP BY operation`;

export const skipReasonsSql = (table: string): string => `SELECT operation, ifNull(reason, '(no reason given)') AS why, count()
${shadows(table)} AND outcome = 'skipped' GROUP BY operation, why`;

/** Each path once per comparison. */
export const shadowPathsSql = (table: string, column: 'diffs' | 'noise'): string => `SELECT operation, path, count() FROM (
  SELECT operation, arrayJoin(arrayDistinct(${column})) AS path ${shadows(table)}
) GROUP BY operation, path`;

/** Every rollout decision, stored whole (src/report/rollout-lines.ts); build-report.ts orders them. */
export const rolloutsSql = (table: string): string => `SELECT rollout FROM ${table} WHERE msg = 'rollout' AND rollout IS NOT NULL`;

/**
 * 1 for a line at or after its step's first whole live counter bucket (`stepBucketMs`, the
 * config's, with --config), 0 before it: grouped apart, so the lines before it have a latest time
 * of their own, which scoped-evidence.ts leaves out as it leaves out each such line of a file.
 */
const wholeBucket = (stepBucketMs: number | undefined): string =>
  stepBucketMs === undefined ? '1' : `if(isNull(stepSince), 1, time >= intDiv(stepSince + ${Math.floor(stepBucketMs) - 1}, ${Math.floor(stepBucketMs)}) * ${Math.floor(stepBucketMs)})`;

/**
 * The judgement's evidence (src/report/scoped-evidence.ts): per config version, operation, route
 * mode in force, step in force (`stepSince`, 0 when absent), side and latency bucket, and whether
 * in the step's whole buckets (wholeBucket), the answers, 4xx, 5xx, fallbacks and the latest time.
 */
export const scopedAnswersSql = (table: string, stepBucketMs?: number): string => `SELECT config, operation, ifNull(routeMode, '') AS rm, ifNull(stepSince, 0) AS step, mode, multiIf(isNull(latencyMs), -2, ${bucketOf('latencyMs')}) AS bucket,
  count(), countIf(status >= 400 AND status < 500), countIf(status >= 500), countIf(fallback = 1), max(time), ${wholeBucket(stepBucketMs)} AS whole
${routed(table)} GROUP BY config, operation, rm, step, mode, bucket, whole`;

/** The judgement's comparisons: per config version, operation, route mode and step in force, outcome and whole buckets or not, how many and the latest time. */
export const scopedShadowsSql = (table: string, stepBucketMs?: number): string => `SELECT config, operation, ifNull(routeMode, '') AS rm, ifNull(stepSince, 0) AS step, outcome, count(), max(time), ${wholeBucket(stepBucketMs)} AS whole
${shadows(table)} GROUP BY config, operation, rm, step, outcome, whole`;

/** The report's example pairs: per operation the latest comparisons with values (as aggregate.ts keepExampleLine keeps them). */
export const exampleLinesSql = (table: string, lines: number): string => `SELECT operation, time, id, examples
${shadows(table)} AND isNotNull(examples) AND examples != '' ORDER BY operation, time DESC, id DESC LIMIT ${lines} BY operation`;

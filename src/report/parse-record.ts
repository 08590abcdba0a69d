/**
 * One usage-log line → a request record, a shadow comparison, another JSON line (ignored), or a
 * broken line with its reason. Every declared field on a request or shadow line is checked by the
 * one check of the declaration (src/observability/log-schema.ts `readField`): a line with a value
 * that is not of its field's type (a negative `time`, a status of 65536, a latency of 1e10 ms) is
 * broken, named by that field, for the file report and the ClickHouse ingest alike, which both read
 * lines here and take the same values (`fields`). Request records are the lines with `"msg":"request"`
 * (src/observability/log-fields.ts); shadow comparisons those with `"msg":"shadow"`, written by
 * `UsageLog.event` (src/observability/node/usage-log.ts) from a `ShadowRecord`
 * (src/traffic/shadow.ts): the record's own ISO `time` is written as the line's epoch-ms `time`
 * (the instant the live counters count it at), an undefined `requestId` is left out:
 *
 *   {"level":30,"time":1767607200000,"kind":"shadow","requestId":"…","operation":"recipes.search",
 *    "outcome":"differ","diffs":[{"path":"Results[].Title","kind":"changed"}],"noise":[],
 *    "legacyStatus":200,"api2Status":200,"msg":"shadow"}
 */
import { BREAKER_FIELDS, ENVELOPE_FIELDS, INVALID, ORIGIN_FIELDS, RECORD_FIELDS, readField } from '../observability/log-schema.js';
import type { LogFieldSpec } from '../observability/log-schema.js';
import { rolloutLineOf } from './rollout-lines.js';
import type { RolloutLine } from './rollout-lines.js';
import type { LogRecord, PathExample, ShadowLine } from './types.js';

/** A line's declared fields as read (`readField`): what the report counts and what ClickHouse stores. */
export type LineFields = Readonly<Record<string, unknown>>;

export type ParsedLine =
  | { readonly kind: 'record'; readonly record: LogRecord; readonly fields: LineFields }
  | { readonly kind: 'shadow'; readonly shadow: ShadowLine; readonly fields: LineFields }
  | { readonly kind: 'breaker'; readonly upstream: string; readonly to: string; readonly fields: LineFields }
  | { readonly kind: 'rollout'; readonly rollout: RolloutLine; readonly fields: LineFields }
  | { readonly kind: 'other' }
  | { readonly kind: 'broken'; readonly reason: string };

const OTHER: ParsedLine = { kind: 'other' };

export function parseLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'broken', reason: line.trimStart().startsWith('{') ? 'not valid JSON (truncated?)' : 'not a JSON line' };
  }
  return parseValue(value);
}

/** The same for a line already parsed as JSON. */
export function parseValue(value: unknown): ParsedLine {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'broken', reason: 'not a JSON object' };
  return fromFields(value as Record<string, unknown>);
}

/** Every declared field of a line but `msg`, checked on request and shadow lines alike. */
const CHECKED: readonly LogFieldSpec[] = [...ENVELOPE_FIELDS, ...ORIGIN_FIELDS, ...RECORD_FIELDS];
const BREAKER_CHECKED: readonly LogFieldSpec[] = [...CHECKED, ...BREAKER_FIELDS];
/** A rollout line's `status`, `from`, `to` and `reason` are its decision's, not the request's or breaker's: only its origin is checked. */
const ORIGIN_CHECKED: readonly LogFieldSpec[] = [...ENVELOPE_FIELDS, ...ORIGIN_FIELDS];

/**
 * The line's declared fields read by their types; the name of the first one that is not of its
 * type (or, on a request line, a required one that is missing or empty) when there is one.
 */
function readFields(raw: Record<string, unknown>, request: boolean, checked = CHECKED): Record<string, unknown> | string {
  const fields: Record<string, unknown> = {};
  for (let i = 0; i < checked.length; i++) {
    const spec = checked[i]!;
    const value = readField(spec.type, raw[spec.name]);
    if (value === INVALID) return spec.name;
    if (value === undefined || value === '') {
      if (spec.presence === 'required' && (request || spec.name === 'time')) return spec.name;
      if (value === undefined) continue;
    }
    fields[spec.name] = value;
  }
  return fields;
}

function fromFields(raw: Record<string, unknown>): ParsedLine {
  const msg = raw['msg'];
  if (msg === 'shadow') return shadowFromFields(raw);
  if (msg === 'breaker') return breakerFromFields(raw);
  if (msg === 'rollout') return rolloutFromFields(raw);
  if (msg !== 'request') return OTHER;
  const fields = readFields(raw, true);
  if (typeof fields === 'string') return invalid(fields);
  fields['method'] ??= 'GET';
  fields['insecure'] = fields['insecure'] === true;
  fields['fallback'] = fields['fallback'] === true;
  // The record is the fields themselves (a LogRecord's fields are among them): no second object per line.
  const record = fields as unknown as LogRecord;
  return { kind: 'record', record, fields };
}

/** A rollout decision (src/report/rollout-lines.ts); stored as its origin's fields, its operation and the decision whole. */
function rolloutFromFields(raw: Record<string, unknown>): ParsedLine {
  const rollout = rolloutLineOf(raw);
  if (typeof rollout === 'string') return { kind: 'broken', reason: `rollout line without a valid "${rollout}"` };
  const fields = readFields({ ...raw, time: raw['time'] ?? rollout.time, operation: rollout.operation }, false, ORIGIN_CHECKED);
  if (typeof fields === 'string') return { kind: 'broken', reason: `rollout line without a valid "${fields}"` };
  fields['operation'] = rollout.operation;
  fields['rollout'] = JSON.stringify(rollout);
  return { kind: 'rollout', rollout, fields };
}

/**
 * A circuit breaker's transition (src/node/server.ts onBreaker):
 * `{"level":30,"time":…,"instance":…,"config":…,"upstream":"api2","from":"closed","to":"open","msg":"breaker"}`;
 * without an upstream and a state entered, another line; with a declared field not of its type, broken.
 */
function breakerFromFields(raw: Record<string, unknown>): ParsedLine {
  const upstream = raw['upstream'];
  const to = raw['to'];
  if (typeof upstream !== 'string' || typeof to !== 'string') return OTHER;
  const fields = readFields(raw, false, BREAKER_CHECKED);
  if (typeof fields === 'string') return { kind: 'broken', reason: `breaker line without a valid "${fields}"` };
  return { kind: 'breaker', upstream: fields['upstream'] as string, to: fields['to'] as string, fields };
}

const OUTCOMES: ReadonlySet<unknown> = new Set(['equal', 'differ', 'race', 'unavailable', 'skipped']);

function shadowFromFields(raw: Record<string, unknown>): ParsedLine {
  if (raw['kind'] !== undefined && raw['kind'] !== 'shadow') return invalidShadow('kind');
  const fields = readFields(raw, false);
  if (typeof fields === 'string') return invalidShadow(fields);
  const time = fields['time'] as number;
  const operation = fields['operation'];
  if (typeof operation !== 'string' || operation === '') return invalidShadow('operation');
  const outcome = raw['outcome'];
  if (!OUTCOMES.has(outcome)) return invalidShadow('outcome');
  const reason = readField('string', raw['reason']);
  if (reason === INVALID) return invalidShadow('reason');
  const diffs = pathsOf(raw['diffs'], (d) => (typeof d === 'object' && d !== null ? (d as Record<string, unknown>)['path'] : undefined));
  if (diffs === undefined) return invalidShadow('diffs');
  const noise = pathsOf(raw['noise'], (n) => n);
  if (noise === undefined) return invalidShadow('noise');
  const examples = examplesOf(raw['diffs']);
  if (examples.length > 0) fields['examples'] = JSON.stringify(examples);
  return {
    kind: 'shadow',
    shadow: { time, id: fields['id'] as string | undefined, config: fields['config'] as string | undefined, routeMode: fields['routeMode'] as string | undefined, stepSince: fields['stepSince'] as number | undefined, operation, outcome: outcome as ShadowLine['outcome'], reason: reason as string | undefined, diffs, noise, examples },
    fields,
  };
}

/** The diffs' values (`legacy`, `api2` text beside a path), where the writer gave them. */
function examplesOf(diffs: unknown): PathExample[] {
  if (!Array.isArray(diffs)) return [];
  const examples: PathExample[] = [];
  for (const d of diffs as unknown[]) {
    if (typeof d !== 'object' || d === null) continue;
    const { path, legacy, api2 } = d as Record<string, unknown>;
    if (typeof path === 'string' && typeof legacy === 'string' && typeof api2 === 'string') examples.push({ path, legacy, api2 });
  }
  return examples;
}

/** An absent list is empty; a list whose every entry gives a non-empty string path, those paths; else undefined. */
function pathsOf(value: unknown, pathOf: (entry: unknown) => unknown): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const paths: string[] = [];
  for (const entry of value) {
    const path = readField('string', pathOf(entry));
    if (typeof path !== 'string' || path === '') return undefined;
    paths.push(path);
  }
  return paths;
}

function invalid(field: string): ParsedLine {
  return { kind: 'broken', reason: `request record without a valid "${field}"` };
}

function invalidShadow(field: string): ParsedLine {
  return { kind: 'broken', reason: `shadow record without a valid "${field}"` };
}

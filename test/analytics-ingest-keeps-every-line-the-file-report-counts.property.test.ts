/**
 * The ClickHouse report and the file report agree on any usage log, and the ingest loses no line
 * the file reader counts. Property test against a real clickhouse-server: generated usage logs
 * (request lines whose fields are generated from the declaration, src/observability/log-schema.ts,
 * with edge values of every type: negative and far times, status 65535 and 65536, latencies of
 * 1e10 ms and finer than 0.01 ms, counts past 2^53, hostile and ill-formed text, wrong types;
 * clients reusing one X-Request-Id; lines without the gateway's `id`, repeated byte for byte;
 * shadow comparisons; circuit breaker transitions; rollout decisions; other lines and broken text), each ingested into
 * a fresh table:
 *
 * - the two reports are equal (all but what names the source and the broken lines it skipped);
 * - the ingest stores one row per line the file reader counts, and skips exactly the lines the file
 *   reader calls broken, named by the same line numbers and reasons.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENVELOPE_FIELDS, ORIGIN_FIELDS, RECORD_FIELDS } from '../src/observability/log-schema.js';
import type { LogFieldType } from '../src/observability/log-schema.js';
import { parseLine } from '../src/report/parse-record.js';
import { reportFrom, reportFromInputs } from '../src/report/run.js';
import { clickHouseSource } from '../src/report/sources/clickhouse.js';
import { execute, clickHouseTarget, select } from '../src/report/sources/clickhouse-http.js';
import { ingest } from '../src/report/sources/clickhouse-ingest.js';
import type { Report } from '../src/report/types.js';
import { clickHouseForThisFile, comparable } from './support/clickhouse-for-this-file.js';
import { T0, writeLog } from './support/log-fixtures.js';

const clickHouseUrl = clickHouseForThisFile();

/** The last millisecond of ClickHouse's DateTime (2106-02-07). */
const MAX_EPOCH_MS = 2 ** 32 * 1000 - 1;

const hostile = fc.constantFrom('', '"', '\\', '\u0000', '\n', '\u2028', '\ud800', '\udc00x', '😀', 'é', '\uffff', '{secret}');
const text = fc.oneof(fc.constantFrom('a', 'b', 'c'), hostile, fc.string({ maxLength: 6 }));

/** Values of each type as the gateway writes them. */
const USUAL: Readonly<Record<LogFieldType, fc.Arbitrary<unknown>>> = {
  string: text,
  true: fc.constant(true),
  boolean: fc.boolean(),
  status: fc.constantFrom(200, 201, 304, 400, 404, 429, 500, 502, 504),
  count: fc.nat({ max: 100_000 }),
  ms: fc.integer({ min: 0, max: 500_000 }).map((n) => n / 100),
  'epoch-ms': fc.integer({ min: T0, max: T0 + 3 * 3_600_000 }),
  level: fc.constantFrom(30, 40),
  paths: fc.constant([]),
};

/** Edge values of each type: the ends of its range, just past them, finer than it, and other types. */
const EDGES: Readonly<Record<LogFieldType, readonly unknown[]>> = {
  string: ['', 5, null, true, ['x'], '\ud800', '\u0000'],
  true: [false, 1, 'true', null],
  boolean: [1, 'false', null],
  status: [0, 99, 65_535, 65_536, -1, 200.5, '200', null],
  count: [0, 2 ** 53 - 1, 2 ** 53, -1, 1.5, '10'],
  ms: [0, 0.004, 0.005, 0.015, 1e-7, 5e-324, 4096.005, 9_999_999_999.99, 9_999_999_999.994, 1e10, 1e21, -0.01, '5'],
  'epoch-ms': [0, 1, MAX_EPOCH_MS, MAX_EPOCH_MS + 1, -1, T0 + 0.5, '2026-01-05T10:00:00.123Z', 'yesterday', null],
  level: [0, 255, 256, -1, '30'],
  paths: [],
};

const OPERATIONS = fc.constantFrom('recipes.search', 'grocery.list', 'reviews.get', 'uncatalogued', 'unrouted');
/** Client hashes, labels and request ids drawn from small sets: clients reuse request ids, and labels change. */
const SPECIFIC: Readonly<Record<string, fc.Arbitrary<unknown>>> = {
  operation: OPERATIONS,
  mode: fc.constantFrom('legacy', 'api2', 'gateway'),
  requestId: fc.constantFrom('dup', 'dup', 'dup-2', 'r-1'),
  client: fc.constantFrom('aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', '\ud800hash'),
  clientLabel: fc.constantFrom('ios', 'android', 'web', 'é', '😀', '\uffff'),
  form: fc.constantFrom('canonical', 'regular', 'malformed', 'other-form'),
  cache: fc.constantFrom('HIT', 'MISS', 'STALE', 'BYPASS', 'odd'),
  routeMode: fc.constantFrom('legacy', 'api2', 'canary', 'shadow'),
  scheme: fc.constantFrom('http', 'https'),
  method: fc.constantFrom('GET', 'POST', 'DELETE'),
};

const FIELDS = [...ENVELOPE_FIELDS, ...ORIGIN_FIELDS, ...RECORD_FIELDS].filter((spec) => spec.name !== 'id');

/** One field given an edge value of its type (or left out), on some lines. */
const edge = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  { arbitrary: fc.constantFrom(...FIELDS).chain((spec) => fc.tuple(fc.constant(spec.name), fc.constantFrom(undefined, ...EDGES[spec.type]))), weight: 1 },
);

/** A request line as an object: every declared field present or not, perhaps one at an edge value, `id` set later. */
const requestLine = fc
  .tuple(
    fc.record(Object.fromEntries(FIELDS.map((spec) => [spec.name, SPECIFIC[spec.name] ?? USUAL[spec.type]])), {
      requiredKeys: FIELDS.filter((spec) => !spec.optional).map((spec) => spec.name) as never[],
    }),
    edge,
  )
  .map(([fields, changed]) => ({ ...fields, ...(changed ? { [changed[0]]: changed[1] } : {}), msg: 'request' }));

const shadowLine = fc
  .record({
    level: fc.constant(30),
    time: USUAL['epoch-ms'],
    kind: fc.constant('shadow'),
    requestId: SPECIFIC['requestId']!,
    operation: OPERATIONS,
    outcome: fc.constantFrom('equal', 'differ', 'differ', 'skipped', 'maybe'),
    reason: fc.constantFrom('concurrency-cap', 'not-json', '😀'),
    diffs: fc.array(fc.record({ path: fc.constantFrom('Results[].Title', 'ResultCount', 'é'), kind: fc.constant('changed') }), { maxLength: 3 }),
    noise: fc.array(fc.constantFrom('ResultCount', 'Date'), { maxLength: 2 }),
    legacyStatus: fc.constant(200),
  }, { requiredKeys: ['time', 'operation', 'outcome'] as never[] })
  .map((fields) => ({ ...fields, msg: 'shadow' }));

const breakerLine = fc
  .record({
    level: fc.constant(30),
    time: fc.oneof(USUAL['epoch-ms'], fc.constantFrom(-1, 'yesterday')),
    instance: fc.constantFrom('pod-1', 'pod-2'),
    upstream: fc.constantFrom('api2', 'api2', 'legacy', 7),
    from: fc.constantFrom('closed', 'half-open', 'open'),
    to: fc.constantFrom('open', 'open', 'half-open', 'closed'),
  }, { requiredKeys: ['time'] as never[] })
  .map((fields) => ({ ...fields, msg: 'breaker' }));

const gate = fc.record({
  gate: fc.constantFrom('shadowAgreement', 'errorRate', 'latencyP95', 'breaker'),
  window: fc.constantFrom('step', 'recent'),
  outcome: fc.constantFrom('pass', 'fail', 'inconclusive'),
  measured: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1e6, noNaN: true })),
  bound: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1e6, noNaN: true })),
  samples: fc.nat(),
});

const rolloutLine = fc
  .record({
    level: fc.constant(30),
    time: fc.oneof(USUAL['epoch-ms'], fc.constantFrom(-1, 'yesterday')),
    instance: fc.constantFrom('pod-1', 'pod-2'),
    operation: fc.constantFrom('recipes.search', 'grocery.list', ''),
    kind: fc.constantFrom('promote', 'gate-failed', 'rollback', 'pause', 'frozen'),
    from: fc.constantFrom('shadow', 5, 25, 100, 'legacy'),
    to: fc.constantFrom('shadow', 5, 25, 100, 'legacy', true),
    status: fc.constantFrom('running', 'paused', 'rolled-back'),
    by: fc.constantFrom('controller', 'operator', 'config'),
    reason: fc.constantFrom('shadowAgreement 0 < 0.900 (recent, 24 samples)', 'é 😀', ''),
    gates: fc.array(gate, { maxLength: 3 }),
    evidence: fc.dictionary(fc.constantFrom('step.compared', 'recent.api2P95Ms', 'step.agreed'), fc.oneof(fc.constant(null), fc.nat())),
  }, { requiredKeys: ['time', 'operation', 'kind', 'from', 'to', 'status', 'by', 'reason'] as never[] })
  .map((fields) => ({ ...fields, msg: 'rollout' }));

type Entry = { readonly kind: 'object'; readonly fields: Record<string, unknown>; readonly withId: boolean } | { readonly kind: 'text'; readonly text: string } | { readonly kind: 'repeat'; readonly of: number };

const entry: fc.Arbitrary<Entry> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('object' as const), fields: requestLine, withId: fc.boolean() }), weight: 12 },
  { arbitrary: fc.record({ kind: fc.constant('object' as const), fields: shadowLine, withId: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('object' as const), fields: breakerLine, withId: fc.constant(false) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('object' as const), fields: rolloutLine, withId: fc.constant(false) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('text' as const), text: fc.constantFrom('{"level":30,"time":1,"msg":"gateway started"}', '{"msg":"request","time":', 'not json', '[1]', '{"msg":"config","version":"x"}') }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('repeat' as const), of: fc.nat() }), weight: 2 },
);

/** The lines of a log: ids unique, as the gateway makes them; a repeated line is repeated byte for byte only when it has no id. */
function linesOf(entries: readonly Entry[], run: number): string[] {
  const lines: string[] = [];
  const idless: string[] = [];
  entries.forEach((e, i) => {
    if (e.kind === 'text') lines.push(e.text);
    else if (e.kind === 'repeat') {
      if (idless.length > 0) lines.push(idless[e.of % idless.length]!);
    } else {
      const line = JSON.stringify(e.withId ? { id: `${run}-${i}`, ...e.fields } : e.fields);
      lines.push(line);
      if (!e.withId) idless.push(line);
    }
  });
  return lines;
}

/** The report as both sources know it: the broken lines are the file reader's alone (the ingest names its own, compared above). */
const bothKnow = (r: Report): Report => ({ ...comparable(r), brokenLines: [], summary: { ...r.summary, brokenLines: 0, otherLines: 0 } });

describe('usage analytics on any log', () => {
  it('the ClickHouse report equals the file report, and the ingest keeps every line the file reader counts', async () => {
    const target = clickHouseTarget(clickHouseUrl());
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 60 }), async (entries) => {
        run++;
        const table = `prop_${run}`;
        const lines = linesOf(entries, run);
        const file = await writeLog(lines);
        try {
          const loaded = await ingest(target, table, [file]);
          const fromFile = await reportFromInputs([file]);
          expect(loaded.broken).toEqual(fromFile.brokenLines);
          expect({ records: loaded.records, shadowLines: loaded.shadowLines, otherLines: loaded.otherLines }).toEqual({
            records: fromFile.summary.records,
            shadowLines: fromFile.summary.shadowLines,
            otherLines: fromFile.summary.otherLines,
          });
          const [[rows, breakers, rollouts]] = (await select(target, `SELECT countIf(msg NOT IN ('breaker', 'rollout')), countIf(msg = 'breaker'), countIf(msg = 'rollout') FROM ${table} FINAL`)) as [[string, string, string]];
          expect(Number(rows)).toBe(fromFile.summary.records + fromFile.summary.shadowLines);
          expect(Number(breakers)).toBe(lines.filter((line) => parseLine(line).kind === 'breaker').length);
          expect(Number(rollouts)).toBe(lines.filter((line) => parseLine(line).kind === 'rollout').length);
          if (fromFile.summary.records + fromFile.summary.shadowLines > 0) {
            const fromClickHouse = await reportFrom(clickHouseSource(target, table));
            expect(bothKnow(fromClickHouse)).toEqual(bothKnow(fromFile));
          }
        } finally {
          await execute(target, `DROP TABLE IF EXISTS ${table}`);
        }
      }),
      { numRuns: 30, seed: Number(process.env['PROPERTY_SEED'] ?? 28), endOnFailure: true },
    );
  }, 600_000);
});

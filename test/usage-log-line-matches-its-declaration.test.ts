/**
 * The usage-log line is what src/observability/log-schema.ts declares, on Node and on the edge:
 * every declared field whose value the record has is written, under its name, in the declared
 * order, with a value of its declared type, and nothing else; the report reads every such line.
 * The records are generated from the declaration itself (one value of the declared type per
 * field), so a field added to the declaration is checked without touching this test, and a writer
 * that leaves out, renames, reorders or mistypes a field, or writes one the declaration lacks, fails
 * it. Hostile text included (quotes, backslashes, control characters, lone surrogates).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createConsoleSink } from '../src/edge/log.js';
import type { RequestRecord } from '../src/gateway/request-record.js';
import { REQUEST_MESSAGE, logLine, toLogFields } from '../src/observability/log-fields.js';
import { ENVELOPE_FIELDS, INVALID, MAX_EPOCH_MS, MAX_MS, MESSAGE_FIELD, ORIGIN_FIELDS, RECORD_FIELDS, REQUEST_LINE_FIELDS, readField } from '../src/observability/log-schema.js';
import type { LogFieldType, LogOrigin } from '../src/observability/log-schema.js';
import { createUsageLog } from '../src/observability/node/usage-log.js';
import { parseLine } from '../src/report/parse-record.js';
import { tempDir } from './support/log-fixtures.js';

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\u2028', '\ud800', '\u0000\n', ''));

/** A value of each declared type, as a record holds it. */
const VALUES: Readonly<Record<LogFieldType, fc.Arbitrary<unknown>>> = {
  string: text,
  true: fc.boolean(),
  boolean: fc.boolean(),
  status: fc.integer({ min: 0, max: 65_535 }),
  count: fc.maxSafeNat(),
  ms: fc.integer({ min: 0, max: MAX_MS * 100 }).map((hundredths) => hundredths / 100),
  'epoch-ms': fc.integer({ min: 0, max: MAX_EPOCH_MS }),
  level: fc.integer({ min: 0, max: 255 }),
  paths: fc.array(fc.string({ minLength: 1 })),
};

/** A record with a value of its declared type for every record field, under the field's name (a required one never empty); optional ones may be absent. */
const record: fc.Arbitrary<RequestRecord> = fc.record(
  {
    startedAt: fc.integer({ min: 0 }),
    ...Object.fromEntries(RECORD_FIELDS.map((spec) => [spec.name, spec.presence === 'required' ? VALUES[spec.type].filter((value) => value !== '') : VALUES[spec.type]])),
  },
  { requiredKeys: ['startedAt', ...RECORD_FIELDS.filter((spec) => !spec.optional).map((spec) => spec.name)] as never[] },
) as unknown as fc.Arbitrary<RequestRecord>;

const origin: fc.Arbitrary<LogOrigin> = fc.record({ instance: text, config: text });

/** What the declaration says the line of this record is: each field's name and value, in order. */
function declaredLine(r: RequestRecord, level: number, time: number, o: LogOrigin): Array<[string, unknown]> {
  const fields: Array<[string, unknown]> = [
    [ENVELOPE_FIELDS[0].name, level],
    [ENVELOPE_FIELDS[1].name, time],
    ...ORIGIN_FIELDS.map((spec): [string, unknown] => [spec.name, spec.value(o)]),
  ];
  for (const spec of RECORD_FIELDS) {
    const value = (spec.value as (r: RequestRecord) => unknown)(r);
    if (value !== undefined) fields.push([spec.name, value]);
  }
  fields.push([MESSAGE_FIELD.name, REQUEST_MESSAGE]);
  return fields;
}

/** Checks a written line against the declaration: the same fields in the same order, each of its declared type and with the declared value. */
function expectDeclared(line: string, r: RequestRecord, o: LogOrigin): void {
  const written = JSON.parse(line) as Record<string, unknown>;
  const expected = declaredLine(r, written['level'] as number, written['time'] as number, o);
  expect(Object.entries(written)).toEqual(expected);
  for (const spec of REQUEST_LINE_FIELDS) if (spec.name in written) expect(readField(spec.type, written[spec.name]), spec.name).not.toBe(INVALID);
  expect(parseLine(line).kind).toBe('record');
}

describe('a usage-log line', () => {
  it('is the declared fields of its record, in order, each of its declared type, and the report reads it', () => {
    fc.assert(
      fc.property(record, fc.constantFrom(30, 40), fc.integer({ min: 0, max: MAX_EPOCH_MS }), origin, (r, level, time, o) => {
        const line = logLine(r, level, time, o);
        expectDeclared(line, r, o);
        expect(line).toBe(JSON.stringify({ level, time, ...toLogFields(r, o), msg: REQUEST_MESSAGE }));
      }),
      { numRuns: 1000 },
    );
  });

  it('is written the same way by the Node usage log and the edge logger', async () => {
    const records = fc.sample(record, { numRuns: 200, seed: 29 });
    const o = { instance: 'pod-1', config: 'c0ffee01' };
    const file = join(await tempDir(), 'usage.log');
    const node = createUsageLog({ enabled: true, destination: file, level: 'info' }, () => o);
    const edgeLines: string[] = [];
    const edge = createConsoleSink({ enabled: true, destination: 'stdout', level: 'info' }, (line) => edgeLines.push(line), o)!;
    for (const r of records) {
      node.sink(r);
      edge(r);
    }
    await node.close();
    const nodeLines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(nodeLines).toHaveLength(records.length);
    expect(edgeLines).toHaveLength(records.length);
    records.forEach((r, i) => {
      expectDeclared(nodeLines[i]!, r, o);
      expectDeclared(edgeLines[i]!, r, o);
      const level = (r.status ?? 0) >= 500 ? 40 : 30;
      expect(JSON.parse(nodeLines[i]!)).toMatchObject({ level });
      expect(edgeLines[i]).toBe(logLine(r, level, (JSON.parse(edgeLines[i]!) as { time: number }).time, o));
    });
  });
});

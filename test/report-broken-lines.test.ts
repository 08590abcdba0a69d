/**
 * A log with broken lines (truncated JSON, text, records without required fields, a gzip stream
 * cut short) is reported with file and line numbers, and everything else is still counted.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { reportFromInputs } from '../src/report/run.js';
import { renderText } from '../src/report/render-text.js';
import { logLine, T0, times, writeLog } from './support/log-fixtures.js';

const good = (i: number): string => logLine({ time: T0 + i, operation: 'recipes.search', mode: 'legacy', client: 'aaaaaaaaaaaaaaaa' });

describe('report: broken lines', () => {
  it('names each broken line and still counts the rest', async () => {
    const whole = good(99);
    const lines = [
      good(1),
      good(2),
      whole.slice(0, 40), // 3: truncated
      good(4),
      'recipe-gateway listening on http://0.0.0.0:8080', // 5: text
      JSON.stringify({ level: 30, time: T0, msg: 'gateway started' }), // 6: another JSON line, ignored
      JSON.stringify({ level: 30, time: T0, operation: 'recipes.search', mode: 'legacy', msg: 'request' }), // 7: no status
      '[1,2,3]', // 8: not an object
      good(9),
      '', // 10: empty, skipped
      good(11),
    ];
    const file = await writeLog(lines);
    const report = await reportFromInputs([file]);
    expect(report.summary.records).toBe(5);
    expect(report.summary.otherLines).toBe(1);
    expect(report.summary.brokenLines).toBe(4);
    expect(report.brokenLines).toEqual([
      { input: file, line: 3, reason: 'not valid JSON (truncated?)' },
      { input: file, line: 5, reason: 'not a JSON line' },
      { input: file, line: 7, reason: 'request record without a valid "status"' },
      { input: file, line: 8, reason: 'not a JSON object' },
    ]);
    const text = renderText(report);
    expect(text).toContain(`${file}:3: not valid JSON (truncated?)`);
    expect(text).toContain(`${file}:7: request record without a valid "status"`);
  });

  it('counts a last line without a newline, and CRLF line ends', async () => {
    const file = await writeLog([]);
    await writeFile(file, `${good(1)}\r\n${good(2)}\r\n${good(3)}`);
    const report = await reportFromInputs([file]);
    expect(report.summary.records).toBe(3);
    expect(report.summary.brokenLines).toBe(0);
  });

  it('reports a gzip file cut short after the lines it could read', async () => {
    const file = await writeLog(times(2000, good), { gzip: true });
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
    const report = await reportFromInputs([file]);
    expect(report.summary.records).toBeGreaterThan(0);
    expect(report.summary.records).toBeLessThan(2000);
    expect(report.brokenLines.at(-1)?.reason).toMatch(/^input ends early: /);
  });
});

/**
 * `npm run report` as a command: table by default, `--json`, several inputs, gzipped files
 * (detected from their bytes), `-` for stdin, and exit code 2 for an unreadable input.
 */
import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/report/types.js';
import { scenarioLines, writeLog } from './support/log-fixtures.js';
import { nodeArgsOf } from './support/entry.js';

const run = promisify(execFile);
const node = process.execPath;
const cli = nodeArgsOf('src/cli/report.ts');

function withStdin(args: string[], input: Buffer): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [...cli, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('report command', () => {
  it('prints the tables by default, and the same numbers as JSON with --json', async () => {
    const file = await writeLog(scenarioLines());
    const table = await run(node, [...cli, file]);
    expect(table.stdout).toMatch(/^Migration report: 578 requests/);
    expect(table.stdout).toContain('OPERATIONS');
    expect(table.stdout).toMatch(/recipes\.search\s+300\s+2\s+legacy 66\.7%, api2 33\.3%/);
    expect(table.stdout).toMatch(/grocery\.update\s+NO EVIDENCE YET\s+40 \(4xx 0, 5xx 0\)\s+≤10 \/ ≤10 ms\s+-\s+-\s+-\s+-\s+on legacy: a write is judged on api2 answers only\s+Once its reads have moved/);
    expect(table.stdout).toContain('ios-app (aaaaaaaaaaaaaaaa): 470 requests, 200 in legacy mode');
    expect(table.stdout).toContain('    malformed path forms (POST /grocerylist/{id}): grocery.update (30)');
    expect(table.stderr).toMatch(/578 records, 0 broken lines in .* records\/s/);

    const json = JSON.parse((await run(node, [...cli, '--json', file])).stdout) as Report;
    expect(json.summary.records).toBe(578);
    expect(json.operations[0]?.operation).toBe('recipes.search');
  });

  it('reads gzipped files and stdin, and adds up several inputs', async () => {
    const plain = await writeLog(scenarioLines());
    const gzipped = await writeLog(scenarioLines(), { gzip: true });
    const both = JSON.parse((await run(node, [...cli, '--json', plain, gzipped])).stdout) as Report;
    expect(both.summary.records).toBe(2 * 578);
    expect(both.inputs).toEqual([plain, gzipped]);

    const fromStdin = await withStdin(['--json', '-'], await readFile(gzipped));
    expect(fromStdin.code).toBe(0);
    const report = JSON.parse(fromStdin.stdout) as Report;
    expect(report.summary.records).toBe(578);
    expect(report.inputs).toEqual(['stdin']);
  });

  it('exits 2 with a message for an unreadable input or no input', async () => {
    await expect(run(node, [...cli, '/nonexistent/access.log'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('cannot read /nonexistent/access.log') });
    await expect(run(node, cli)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage: npm run report') });
  });
});

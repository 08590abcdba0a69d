/**
 * `npm run bench -- syscalls [--requests N] [--targets LIST]`: system calls per request of each target,
 * by `strace -f -c` over exactly N requests of the warmed process; counts do not depend on load.
 */
import { spawn } from 'node:child_process';
import { forkUpstreams } from './children.js';
import type { Child } from './children.js';
import { runLoad } from './load.js';
import type { Options, Outcome } from './options.js';
import { REQUEST_HEADERS, SEARCH_TARGET } from './pages.js';
import { startTarget } from './scenarios.js';

/** `strace -c` summary rows (% time, seconds, usecs/call, calls, [errors], syscall): syscall → calls. */
function parseSummary(text: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of text.split('\n')) {
    const cells = line.trim().split(/\s+/);
    if (cells.length >= 5 && /^\d+(\.\d+)?$/.test(cells[0] ?? '') && cells.at(-1) !== 'total') calls.set(cells.at(-1)!, Number(cells[3]));
  }
  return calls;
}

async function count(child: Child, url: string, requests: number): Promise<Map<string, number>> {
  const strace = spawn('strace', ['-f', '-c', '-p', String(child.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let summary = '';
  strace.stderr.on('data', (chunk: Buffer) => (summary += chunk.toString()));
  await new Promise((resolve) => setTimeout(resolve, 500));
  await runLoad({ url, connections: 50, amount: requests, headers: REQUEST_HEADERS, timeoutS: 30 });
  const exited = new Promise((resolve) => strace.once('exit', resolve));
  strace.kill('SIGINT');
  await exited;
  return parseSummary(summary);
}

export async function syscalls(options: Options): Promise<Outcome> {
  const { requests, targets } = options;
  const { info } = await forkUpstreams();
  const rows: Array<[string, Map<string, number>]> = [];
  for (const target of targets) {
    const child = await startTarget(target, info, {});
    const url = `${String(child.info['origin'])}${SEARCH_TARGET}`;
    await runLoad({ url, headers: REQUEST_HEADERS, connections: 50, durationS: 2 });
    rows.push([target, await count(child, url, requests)]);
    process.stderr.write(`${target}: counted\n`);
  }
  const names = [...new Set(rows.flatMap(([, calls]) => [...calls.keys()]))]
    .map((name) => ({ name, most: Math.max(...rows.map(([, calls]) => calls.get(name) ?? 0)) }))
    .filter(({ most }) => most / requests >= 0.01)
    .sort((a, b) => b.most - a.most);
  const cells = (per: (calls: Map<string, number>) => number) => rows.map(([, calls]) => (per(calls) / requests).toFixed(2).padStart(12)).join('');
  const lines = [`system calls per request over ${requests} requests at 50 connections (strace -f -c)`, `${'syscall'.padEnd(16)}${rows.map(([t]) => t.padStart(12)).join('')}`];
  for (const { name } of names) lines.push(`${name.padEnd(16)}${cells((calls) => calls.get(name) ?? 0)}`);
  lines.push(`${'total'.padEnd(16)}${cells((calls) => [...calls.values()].reduce((sum, n) => sum + n, 0))}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return { json: Object.fromEntries(rows.map(([target, calls]) => [target, Object.fromEntries(calls)])) };
}

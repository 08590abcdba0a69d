/**
 * `npm run bench -- syscalls [--requests N] [--targets LIST]`: system calls per request of each
 * process under test (default: floor-log, gw-legacy, hono-log, gw-cache), counted by
 * `strace -f -c` (Debian package strace) attached to the warmed process over exactly N requests
 * (default 20000) at 50 connections. Counts do not depend on how busy the machine is, unlike CPU
 * time: this is how "more writes per answer than the floor" is told apart from noise. strace
 * slows the process down; only the counts are read.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { forkUpstreams } from './children.js';
import type { Child } from './children.js';
import { runLoad } from './load.js';
import { SEARCH_TARGET } from './pages.js';
import { REQUEST_HEADERS, forkTarget } from './scenarios.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '20000' }, targets: { type: 'string', default: 'floor-log,gw-legacy,hono-log,gw-cache' } } });
const requests = Number(values.requests);
const targets = values.targets.split(',').map((t) => t.trim());

/** `strace -c` summary rows: syscall → calls. */
function parseSummary(text: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of text.split('\n')) {
    const cells = line.trim().split(/\s+/);
    // % time, seconds, usecs/call, calls, [errors], syscall
    if (cells.length >= 5 && /^\d+(\.\d+)?$/.test(cells[0] ?? '') && cells[cells.length - 1] !== 'total') {
      calls.set(cells[cells.length - 1]!, Number(cells[3]));
    }
  }
  return calls;
}

function load(url: string, amount: number): Promise<void> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: 50, amount, headers: { ...REQUEST_HEADERS }, timeout: 30 }, (error: unknown) => (error ? reject(error as Error) : resolve()));
  });
}

async function count(child: Child, url: string): Promise<Map<string, number>> {
  const strace = spawn('strace', ['-f', '-c', '-p', String(child.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let summary = '';
  strace.stderr.on('data', (chunk: Buffer) => (summary += chunk.toString()));
  await new Promise((resolve) => setTimeout(resolve, 500));
  await load(url, requests);
  const exited = new Promise((resolve) => strace.once('exit', resolve));
  strace.kill('SIGINT');
  await exited;
  return parseSummary(summary);
}

const { child: upstreams, info } = await forkUpstreams();
const children: Child[] = [upstreams];
try {
  const rows: Array<[string, Map<string, number>]> = [];
  for (const target of targets) {
    const child = await forkTarget(target, info, {});
    children.push(child);
    const url = `${String(child.info['origin'])}${SEARCH_TARGET}`;
    await runLoad({ url, headers: REQUEST_HEADERS, connections: 50, durationS: 2 });
    rows.push([target, await count(child, url)]);
    process.stderr.write(`${target}: counted\n`);
  }
  const names = [...new Set(rows.flatMap(([, calls]) => [...calls.keys()]))]
    .map((name) => ({ name, most: Math.max(...rows.map(([, calls]) => calls.get(name) ?? 0)) }))
    .filter(({ most }) => most / requests >= 0.01)
    .sort((a, b) => b.most - a.most);
  const per = (calls: Map<string, number>, name: string) => ((calls.get(name) ?? 0) / requests).toFixed(2);
  const total = (calls: Map<string, number>) => ([...calls.values()].reduce((sum, n) => sum + n, 0) / requests).toFixed(2);
  console.log(`system calls per request over ${requests} requests at 50 connections (strace -f -c)`);
  console.log(`${'syscall'.padEnd(16)}${rows.map(([t]) => t.padStart(12)).join('')}`);
  for (const { name } of names) console.log(`${name.padEnd(16)}${rows.map(([, calls]) => per(calls, name).padStart(12)).join('')}`);
  console.log(`${'total'.padEnd(16)}${rows.map(([, calls]) => total(calls).padStart(12)).join('')}`);
} finally {
  await Promise.allSettled(children.map((child) => child.kill()));
}

/**
 * `npm run bench:profile -- [--target T] [--duration S] [--out DIR]`: one process under test
 * (default gw-legacy: pass-through, log on; also gw-legacy-nolog, gw-cache, gw-cache-nolog, gw-api2,
 * floor, floor-log, hono, hono-log) against the canned upstreams at 50 connections: 3 s of warm-up,
 * then the CPU and allocation sampling profilers over `--duration` seconds of load (default 15),
 * and a summary per part of the code in µs and bytes per request (bench/profile-summary.ts).
 * Profiles are written to DIR (default .bench-profiles/), to open in Chrome DevTools.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { forkUpstreams } from './children.js';
import type { Child } from './children.js';
import { measureTarget } from './measure.js';
import { SEARCH_TARGET, cannedPages } from './pages.js';
import { renderSummary, summarizeProfiles } from './profile-summary.js';
import { forkTarget } from './scenarios.js';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { target: { type: 'string', default: 'gw-legacy' }, duration: { type: 'string', default: '15' }, out: { type: 'string', default: '.bench-profiles' } } });
  const target = values.target;
  const durationS = Number(values.duration);
  const dir = resolve(values.out);
  await mkdir(dir, { recursive: true });
  const children: Child[] = [];
  try {
    const { child: upstreams, info: upstreamInfo } = await forkUpstreams();
    children.push(upstreams);
    const child = await forkTarget(target, upstreamInfo, { gcTrace: true });
    children.push(child);
    const url = `${String(child.info['origin'])}${SEARCH_TARGET}`;
    process.stderr.write(`${target}: warm-up 3 s, then ${durationS} s profiled…\n`);
    await measureTarget(child, url, 50, 3);
    await child.profile?.start();
    const measured = await measureTarget(child, url, 50, durationS);
    const files = (await child.profile?.stop(dir, `${target}-${Date.now()}`)) ?? [];
    const [cpu, heap] = await Promise.all(files.map((file) => readFile(file, 'utf8').then((text) => JSON.parse(text) as never)));
    const summary = summarizeProfiles(cpu!, heap!, measured.requests);
    process.stdout.write(
      `${renderSummary(target, summary, measured.cpuUsPerRequest ?? Number.NaN)}\n` +
        `(${measured.requests} requests, ${measured.reqPerSec.toFixed(0)} req/s, promoted ${(measured.promotedBytesPerRequest ?? Number.NaN).toFixed(0)} B/request; page ${cannedPages().legacy.byteLength} B)\n` +
        `profiles: ${files.join(', ')}\n`,
    );
  } finally {
    await Promise.allSettled(children.map((child) => child.kill()));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`profile failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

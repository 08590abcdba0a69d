/**
 * `npm run bench -- gc [--target T] [--duration S] [--runs N] [--flags=FLAGS] [--compare=FLAGS]`:
 * what the young generation does under load. One process under test (any target of
 * bench/scenarios.ts) against the canned upstreams at 50 connections: 3 s of warm-up, then S
 * seconds (default 6) of load, N times (default 3, a fresh process each time), each printing the
 * scavenges' median pause, the bytes each promoted and the bytes that survived it young, the
 * mark-compacts, CPU per request and RSS after the load. Extra flags come after production's
 * (`--flags=--allocation-site-pretenuring` undoes one). With `--compare`, each run is a pair of
 * fresh processes, `--flags` then `--compare` (the order alternating), and the medians of both
 * sides close the output: how a Node flag is measured, since a flag can change which state a
 * fresh process enters, which one process cannot show.
 */
import { forkUpstreams } from './children.js';
import type { UpstreamInfo } from './children.js';
import { measureTarget } from './load.js';
import type { Options, Outcome } from './options.js';
import { SEARCH_TARGET } from './pages.js';
import { treeRssBytes } from './proc.js';
import { median } from './report.js';
import { startTarget } from './scenarios.js';

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function run(options: Options, upstreams: UpstreamInfo, label: string, execArgv: readonly string[]) {
  const child = await startTarget(options.target, upstreams, { gcTrace: true, execArgv });
  try {
    const url = `${String(child.info['origin'])}${SEARCH_TARGET}`;
    await measureTarget(child, url, 50, 3);
    const trace = child.gc!;
    const [before, compactsBefore] = [trace.scavenges.length, trace.markCompacts()];
    const measured = await measureTarget(child, url, 50, options.durationS);
    const scavenges = trace.scavenges.slice(before);
    const result = { cpuUs: measured.cpuUsPerRequest ?? Number.NaN, promotedBytes: measured.promotedBytesPerRequest ?? Number.NaN, rssBytes: treeRssBytes(child.pid) };
    const mid = (pick: (s: (typeof scavenges)[number]) => number) => median(scavenges.map(pick));
    process.stdout.write(
      `${label}: ${measured.requests} requests, ${scavenges.length} scavenges, median pause ${mid((s) => s.pauseMs).toFixed(2)} ms, ` +
        `promoted ${kb(mid((s) => s.promoted))} and survived ${kb(mid((s) => s.survived))} per scavenge (median), ` +
        `${result.promotedBytes.toFixed(0)} B/request promoted, ${trace.markCompacts() - compactsBefore} mark-compacts, CPU ${result.cpuUs.toFixed(1)} µs/request, RSS ${mib(result.rssBytes)}\n`,
    );
    return result;
  } finally {
    await child.kill();
  }
}

export async function gc(options: Options): Promise<Outcome> {
  const sides = [options.flags, ...(options.compare ? [options.compare] : [])];
  const named = (flags: readonly string[]) => flags.join(' ') || 'production flags';
  const { info } = await forkUpstreams();
  const results = sides.map(() => [] as Array<Awaited<ReturnType<typeof run>>>);
  for (let pair = 1; pair <= options.runs; pair++) {
    for (const side of pair % 2 === 1 ? [0, 1] : [1, 0]) {
      if (side >= sides.length) continue;
      results[side]!.push(await run(options, info, `${options.target}${sides.length > 1 ? ` [${named(sides[side]!)}]` : ''} run ${pair}`, sides[side]!));
    }
  }
  if (sides.length > 1) {
    for (const [side, runs] of results.entries()) {
      const stat = (pick: (r: (typeof runs)[number]) => number, digits: number) => `median ${median(runs.map(pick)).toFixed(digits)} max ${Math.max(...runs.map(pick)).toFixed(digits)}`;
      process.stdout.write(
        `${named(sides[side]!).padEnd(40)} CPU ${stat((r) => r.cpuUs, 1)} µs/request, promoted ${stat((r) => r.promotedBytes, 0)} B/request, RSS median ${mib(median(runs.map((r) => r.rssBytes)))} (${runs.length} runs)\n`,
      );
    }
  }
  return { json: { target: options.target, sides, results } };
}

/**
 * `npm run bench:gc -- [--target T] [--seconds S] [--runs N] [--flags "..."] [--compare "..."]`:
 * what the young generation does under load, per scavenge. One process under test (a gateway
 * target or an anchor, as in bench:profile) against the canned upstreams at 50 connections: 3 s of
 * warm-up, then S seconds (default 6) of load, N times (default 3, a fresh process each time), each
 * printing the scavenges' median pause, the bytes each promoted and the bytes that survived it
 * young, the mark-compacts, the process's CPU per request and its RSS after the load. A process
 * whose requests die young promotes almost nothing and pauses 1-2 ms; one that keeps request
 * objects alive across scavenges promotes megabytes each time and pauses several ms
 * (docs/benchmarks-anchors.md, "Promotion"). Extra flags come after the production ones
 * (`--flags=--allocation-site-pretenuring` undoes one). With `--compare`, each run is a pair of
 * fresh processes, `--flags` then `--compare` (the order alternating), and the medians of both
 * sides close the output: how a Node flag is measured, since a flag can change which state a
 * process enters, which one process cannot show.
 */
import { parseArgs } from 'node:util';
import { forkUpstreams } from './children.js';
import { measureTarget } from './measure.js';
import { SEARCH_TARGET } from './pages.js';
import { median } from './report.js';
import { forkTarget } from './scenarios.js';
import type { UpstreamInfo } from './children.js';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'gw-legacy' },
    seconds: { type: 'string', default: '6' },
    runs: { type: 'string', default: '3' },
    flags: { type: 'string', default: '' },
    compare: { type: 'string' },
  },
});
const target = values.target;
const words = (flags: string): string[] => flags.split(/\s+/).filter((flag) => flag.length > 0);
const sides = [words(values.flags), ...(values.compare !== undefined ? [words(values.compare)] : [])];
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

interface Run {
  readonly cpuUs: number;
  readonly promotedBytes: number;
  /** RSS of the process (and its workers) right after the measured load. */
  readonly rssBytes: number;
}

async function run(info: UpstreamInfo, label: string, execArgv: readonly string[]): Promise<Run> {
  const child = await forkTarget(target, info, { gcTrace: true, execArgv });
  try {
    const url = `${String(child.info['origin'])}${SEARCH_TARGET}`;
    await measureTarget(child, url, 50, 3);
    const [before, compactsBefore] = [child.gc!.scavengeLog().length, child.gc!.markCompacts()];
    const measured = await measureTarget(child, url, 50, Number(values.seconds));
    const scavenges = child.gc!.scavengeLog().slice(before);
    const result = { cpuUs: measured.cpuUsPerRequest ?? Number.NaN, promotedBytes: measured.promotedBytesPerRequest ?? Number.NaN, rssBytes: await child.rss() };
    console.log(
      `${label}: ${measured.requests} requests, ${scavenges.length} scavenges, median pause ${median(scavenges.map((s) => s.pauseMs)).toFixed(2)} ms, ` +
        `promoted ${kb(median(scavenges.map((s) => s.promoted)))} and survived ${kb(median(scavenges.map((s) => s.survived)))} per scavenge (median), ` +
        `${result.promotedBytes.toFixed(0)} B/request promoted, ${child.gc!.markCompacts() - compactsBefore} mark-compacts, CPU ${result.cpuUs.toFixed(1)} µs/request, RSS ${mib(result.rssBytes)}`,
    );
    return result;
  } finally {
    await child.kill();
  }
}

const { child: upstreams, info } = await forkUpstreams();
try {
  const results: Run[][] = sides.map(() => []);
  for (let pair = 1; pair <= Number(values.runs); pair++) {
    const order = pair % 2 === 1 ? sides.map((_, side) => side) : sides.map((_, side) => sides.length - 1 - side);
    for (const side of order) {
      const flags = sides[side]!.join(' ');
      results[side]!.push(await run(info, `${target}${sides.length > 1 ? ` [${flags || 'production flags'}]` : ''} run ${pair}`, sides[side]!));
    }
  }
  if (sides.length > 1) {
    for (const [side, runs] of results.entries()) {
      console.log(
        `${(sides[side]!.join(' ') || 'production flags').padEnd(40)} CPU median ${median(runs.map((r) => r.cpuUs)).toFixed(1)} max ${Math.max(...runs.map((r) => r.cpuUs)).toFixed(1)} µs/request, ` +
          `promoted median ${median(runs.map((r) => r.promotedBytes)).toFixed(0)} max ${Math.max(...runs.map((r) => r.promotedBytes)).toFixed(0)} B/request, ` +
          `RSS median ${mib(median(runs.map((r) => r.rssBytes)))} (${runs.length} runs)`,
      );
    }
  }
} finally {
  await upstreams.kill();
}

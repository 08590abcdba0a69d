/**
 * `npm run bench:gc -- [--target T] [--seconds S] [--runs N] [--flags "..."]`: what the young
 * generation does under load, per scavenge. One process under test (a gateway target or an anchor,
 * as in bench:profile) against the canned upstreams at 50 connections: 3 s of warm-up, then S
 * seconds (default 6) of load, N times (default 3, a fresh process each time), each printing the
 * scavenges' median pause, the bytes each promoted and the bytes that survived it young, and the
 * mark-compacts. A process whose requests die young promotes almost nothing and pauses 1-2 ms;
 * one that keeps request objects alive across scavenges promotes megabytes each time and pauses
 * several ms (docs/benchmarks-anchors.md, "Promotion").
 */
import { parseArgs } from 'node:util';
import { forkUpstreams } from './children.js';
import { measureTarget } from './measure.js';
import { SEARCH_TARGET } from './pages.js';
import { median } from './report.js';
import { forkTarget } from './scenarios.js';

const { values } = parseArgs({
  options: { target: { type: 'string', default: 'gw-legacy' }, seconds: { type: 'string', default: '6' }, runs: { type: 'string', default: '3' }, flags: { type: 'string', default: '' } },
});
const target = values.target;
const execArgv = values.flags.split(/\s+/).filter((flag) => flag.length > 0);
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;

const { child: upstreams, info } = await forkUpstreams();
try {
  for (let run = 1; run <= Number(values.runs); run++) {
    const child = await forkTarget(target, info, { gcTrace: true, execArgv });
    try {
      const url = `${String(child.info['origin'])}${SEARCH_TARGET}`;
      await measureTarget(child, url, 50, 3);
      const [before, compactsBefore] = [child.gc!.scavengeLog().length, child.gc!.markCompacts()];
      const measured = await measureTarget(child, url, 50, Number(values.seconds));
      const scavenges = child.gc!.scavengeLog().slice(before);
      console.log(
        `${target} run ${run}: ${measured.requests} requests, ${scavenges.length} scavenges, median pause ${median(scavenges.map((s) => s.pauseMs)).toFixed(2)} ms, ` +
          `promoted ${kb(median(scavenges.map((s) => s.promoted)))} and survived ${kb(median(scavenges.map((s) => s.survived)))} per scavenge (median), ` +
          `${(measured.promotedBytesPerRequest ?? Number.NaN).toFixed(0)} B/request promoted, ${child.gc!.markCompacts() - compactsBefore} mark-compacts`,
      );
    } finally {
      await child.kill();
    }
  }
} finally {
  await upstreams.kill();
}

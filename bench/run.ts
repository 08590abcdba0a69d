/**
 * `npm run bench -- [mode] [flags]`, the one entry of bench/:
 *
 *   (no mode)  the gateway against its anchors (bench/runner.ts, flags: bench/options.ts): prints the
 *              table and the ratios on stdout (progress on stderr), writes `--json FILE`; `--runs 3`
 *              runs it three times in a row and prints each ratio's median over the runs
 *   ab         this checkout against another commit, alternating rounds (bench/ab.ts)
 *   gc         what the young generation does under load, per scavenge (bench/gc.ts)
 *   profile    CPU and allocation profiles of one process under test (bench/profile.ts)
 *   soak       a mixed workload over every operation, both modes, RSS over time (bench/soak.ts)
 *   syscalls   system calls per request of the gateway beside its anchors, by strace (bench/syscalls.ts)
 *
 * Exits 0 whatever the ratios say (they are reported, not asserted); 1 when the run itself fails,
 * 2 on bad flags.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseBenchArgs } from './options.js';
import type { BenchOptions } from './options.js';
import type { BenchReport } from './report.js';
import { renderRunsSummary, renderText } from './report-text.js';
import { runBench } from './runner.js';

/** Each mode's module parses the flags after the mode and runs when imported. */
const MODES: Readonly<Record<string, string>> = { ab: './ab.js', gc: './gc.js', profile: './profile.js', soak: './soak.js', syscalls: './syscalls.js' };

async function anchors(args: readonly string[]): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseBenchArgs(args);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const reports: BenchReport[] = [];
  for (let run = 1; run <= options.runs; run++) {
    if (options.runs > 1) process.stderr.write(`run ${run}/${options.runs}…\n`);
    const report = await runBench(options);
    reports.push(report);
    process.stdout.write(`${renderText(report)}\n\n`);
  }
  if (options.runs > 1) process.stdout.write(`${renderRunsSummary(reports)}\n`);
  if (options.json) {
    const file = resolve(options.json);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(options.runs > 1 ? { runs: reports } : reports[0], null, 2)}\n`);
    process.stdout.write(`JSON written to ${file}\n`);
  }
  return 0;
}

async function main(): Promise<number> {
  const mode = process.argv[2];
  const module = mode === undefined ? undefined : MODES[mode];
  if (!module) return anchors(process.argv.slice(2));
  process.argv.splice(2, 1);
  await import(module);
  return process.exitCode === undefined ? 0 : Number(process.exitCode);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);

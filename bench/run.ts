/**
 * `npm run bench -- [mode] [flags]` (flags: bench/options.ts), the one entry of bench/:
 *   (no mode)  the gateway against its anchors (bench/runner.ts; `--runs 3`: each ratio's median of three runs)
 *   profile    CPU and allocation profiles of one process under test; `--gc`: its young generation
 *   soak       every operation, both modes, errors and RSS over time
 *   syscalls   system calls per request beside the anchors, by strace
 * Exit 0 whatever the ratios say (the soak: 1 on errors); 1 when the run fails, 2 on bad flags.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { stopAll } from './children.js';
import { parseOptions } from './options.js';
import type { Mode, Options, Outcome } from './options.js';
import { closeProbes } from './probe.js';
import { profile } from './profile.js';
import { renderRunsSummary, renderText } from './report-text.js';
import { runBench } from './runner.js';
import type { BenchReport } from './runner.js';
import { soak } from './soak.js';
import { syscalls } from './syscalls.js';

async function anchors(options: Options): Promise<Outcome> {
  const reports: BenchReport[] = [];
  for (let run = 1; run <= options.runs; run++) {
    if (options.runs > 1) process.stderr.write(`run ${run}/${options.runs}…\n`);
    reports.push(await runBench(options));
    process.stdout.write(`${renderText(reports.at(-1)!)}\n\n`);
  }
  if (options.runs > 1) process.stdout.write(`${renderRunsSummary(reports)}\n`);
  return { json: options.runs > 1 ? { runs: reports } : reports[0] };
}

const MODES: Readonly<Record<Mode, (options: Options) => Promise<Outcome>>> = { anchors, profile, soak, syscalls };

async function main(): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  let outcome: Outcome;
  try {
    outcome = await MODES[options.mode](options);
  } finally {
    await stopAll();
    await closeProbes();
  }
  if (options.json) {
    const file = resolve(options.json);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(outcome.json, null, 2)}\n`);
    process.stdout.write(`JSON written to ${file}\n`);
  }
  return outcome.code ?? 0;
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

/**
 * `npm run bench [-- flags]` (flags: bench/options.ts): runs the benchmark, prints the table and
 * the ratios on stdout (progress on stderr), writes `--json FILE`. Exits 0 whatever the ratios
 * say (they are reported, not asserted); 1 when the run itself fails, 2 on bad flags.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseBenchArgs } from './options.js';
import type { BenchOptions } from './options.js';
import { renderText } from './report-text.js';
import { runBench } from './runner.js';

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const report = await runBench(options);
  process.stdout.write(`${renderText(report)}\n`);
  if (options.json) {
    const file = resolve(options.json);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`JSON written to ${file}\n`);
  }
  return 0;
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

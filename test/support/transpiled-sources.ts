/**
 * Vitest's global setup (vitest.config.ts): the gateway's sources (src/, mappings/, bench/) transpiled
 * once per run with esbuild, file by file, as tsx would on every start, for the tests that start an
 * entry point (the gateway's main, the report's command, the bench and its measured children) as a
 * child process. Such a start costs about 0.7 CPU-seconds on plain Node instead of 1.5 under
 * `node --import tsx` (its loader hooks resolve every module on another thread) and 2.6 under the
 * tsx binary (a second process): the suite starts these a hundred times and more (issue 49). No typecheck here (`npm run typecheck`
 * and the build's own tests do that); the tests of `npm start` itself still run it as printed.
 * Rebuilt when watch mode reruns the tests; removed at the end.
 */
import { copyFile, readdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding the transpiled src/, mappings/ and bench/ (entry.ts reads it). */
    transpiledSources: string;
  }
}

const ROOT = new URL('../..', import.meta.url).pathname;

async function sourcesIn(dir: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, dir), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')).map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

async function transpile(out: string): Promise<void> {
  const files = [...(await sourcesIn('src')), ...(await sourcesIn('mappings')), ...(await sourcesIn('bench'))];
  await rm(out, { recursive: true, force: true });
  await build({ absWorkingDir: ROOT, entryPoints: files, outdir: out, outbase: '.', format: 'esm', platform: 'node', target: 'node20', bundle: false, logLevel: 'error' });
  // The checkout's package.json beside them: ESM, and the scripts the bench reads its Node flags from.
  await copyFile(join(ROOT, 'package.json'), join(out, 'package.json'));
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Inside node_modules, so that the transpiled files find the packages as the sources do.
  const out = join(ROOT, 'node_modules', '.cache', 'recipe-gateway-tests', `${process.pid}-${project.name}`);
  await transpile(out);
  project.provide('transpiledSources', out);
  project.onTestsRerun(() => transpile(out));
  return () => rm(out, { recursive: true, force: true });
}

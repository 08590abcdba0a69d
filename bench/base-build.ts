/**
 * A commit of this repository, exported with `git archive` into .bench-ab/<commit>/ and compiled
 * there once (its own tsconfig.bench.json, this checkout's node_modules), so a bench can run it
 * beside this checkout: bench:ab forks its gateway child, bench/api2-core.ts imports its core.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface BuiltCommit {
  readonly commit: string;
  /** The compiled tree: `<dir>/bench/…`, `<dir>/src/…`. */
  readonly buildDir: string;
}

export function buildCommit(ref: string, say: (text: string) => void = (text) => void process.stderr.write(`${text}\n`)): BuiltCommit {
  const root = resolve('.');
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = join(root, '.bench-ab', commit);
  const buildDir = join(dir, '.bench-build');
  if (existsSync(join(buildDir, 'bench', 'gateway-child.js'))) return { commit, buildDir };
  say(`exporting and compiling ${commit.slice(0, 12)} into ${dir}…`);
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${dir}"`]);
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.bench.json'], { cwd: dir, stdio: 'ignore' });
  } catch {
    // Type errors against today's libraries still emit JavaScript; only a missing child is fatal.
  }
  if (!existsSync(join(buildDir, 'bench', 'gateway-child.js'))) throw new Error(`${ref}: no bench/gateway-child.js after compiling ${dir}`);
  return { commit, buildDir };
}

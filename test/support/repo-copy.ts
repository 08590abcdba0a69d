/**
 * A copy of this repository's tracked files in a temporary folder, with node_modules linked, for
 * tests that make a developer's edits and run the project's own tools there; and the ```ts
 * walkthrough=NAME blocks of a docs page, the edits it shows.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, realpath, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface RepositoryCopy {
  readonly dir: string;
  /** The tracked files copied, relative to the repository root. */
  readonly tracked: readonly string[];
  /** The tracked files whose bytes differ in the copy now. */
  changed(): Promise<string[]>;
}

export async function copyRepository(prefix: string): Promise<RepositoryCopy> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const tracked = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter((file) => file !== '' && existsSync(file));
  await Promise.all(
    tracked.map(async (file) => {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await copyFile(file, join(dir, file));
    }),
  );
  await symlink(await realpath('node_modules'), join(dir, 'node_modules'));
  return {
    dir,
    tracked,
    async changed() {
      const changed: string[] = [];
      for (const file of tracked) if (!(await readFile(join(dir, file))).equals(await readFile(file))) changed.push(file);
      return changed.sort();
    },
  };
}

/** The ```ts walkthrough=NAME blocks of a page, by name. */
export function walkthroughBlocks(text: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const found of text.matchAll(/^```ts walkthrough=(\w+)\n([\s\S]*?)^```$/gm)) blocks.set(found[1] ?? '', found[2] ?? '');
  return blocks;
}

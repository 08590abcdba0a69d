/**
 * Node-only: the rollout state of one process kept in a file (`rollout.stateFile`), so that it
 * survives a restart. Written whole after each change (to a temporary file, then renamed: a crash
 * leaves the old file or the new one, never half of one). A file that cannot be read as a state
 * file fails the start naming it; one that does not exist yet is an empty state.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createMemoryStore, readState } from '../store.js';
import type { RolloutStore, StoredState } from '../store.js';
import type { RolloutEvent } from '../state.js';

interface StateFile {
  readonly states: Record<string, StoredState>;
  readonly events: RolloutEvent[];
}

export async function createFileStore(path: string): Promise<RolloutStore> {
  let initial: StateFile | undefined;
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<StateFile>;
    if (typeof parsed !== 'object' || parsed === null || typeof parsed.states !== 'object' || !Array.isArray(parsed.events)) throw new Error('not a rollout state file');
    const states = Object.entries(parsed.states ?? {}).map(([id, stored]) => [id, { ...stored, state: readState(stored.state) }]);
    initial = { states: Object.fromEntries(states) as Record<string, StoredState>, events: parsed.events };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`rollout.stateFile ${path} cannot be read as a rollout state file (${(error as Error).message})`);
  }
  await mkdir(dirname(path), { recursive: true });
  let writing: Promise<void> = Promise.resolve();
  return createMemoryStore(initial, (snapshot) => {
    const text = JSON.stringify(snapshot);
    // One write at a time, in order.
    writing = writing.then(async () => {
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, text);
      await rename(temporary, path);
    });
    return writing;
  });
}

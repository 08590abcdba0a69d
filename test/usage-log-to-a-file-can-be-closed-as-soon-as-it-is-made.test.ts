/**
 * A usage log written to a file can be flushed and closed the moment it is made, before any
 * file system callback has run: a gateway stopped at once after its start (a failed health
 * check, Ctrl-C) must not crash on its way out, and a line recorded before the close is in the
 * file. (The log hands its destination bytes; sonic-boom in that mode threw from its file-open
 * callback when a flush was asked for before the file it opened itself was open.)
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createUsageLog } from '../src/observability/node/usage-log.js';
import { tempDir } from './support/log-fixtures.js';

const origin = () => ({ instance: 't', config: '1' });

describe('a usage log to a file, closed as soon as it is made', () => {
  it('with nothing recorded: closes, and leaves the file (and its new folder) empty', async () => {
    const file = join(await tempDir(), 'new-folder', 'usage.log');
    const log = createUsageLog({ enabled: true, destination: file, level: 'info' }, origin);
    await log.flush();
    await log.close();
    expect((await stat(file)).size).toBe(0);
  });

  it('with one request recorded: closes, and the line is in the file', async () => {
    const file = join(await tempDir(), 'usage.log');
    const log = createUsageLog({ enabled: true, destination: file, level: 'info' }, origin);
    log.sink({ requestId: 'r1', startedAt: 0, method: 'GET', operation: 'recipes.search', insecure: false, status: 200 });
    await log.close();
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { requestId: string }).requestId)).toEqual(['r1']);
  });
});

/**
 * The usage log encodes request lines into a batch buffer (src/observability/node/usage-log.ts):
 * lines of any length and any characters reach the destination whole, in order, byte for byte,
 * across batch hand-overs (lines longer than a batch, many short ones, multi-byte UTF-8).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createUsageLog } from '../src/observability/node/usage-log.js';
import { tempDir } from './support/log-fixtures.js';

describe('usage log batches', () => {
  it('write every line whole and in order, whatever its length and characters', async () => {
    const file = join(await tempDir(), 'usage.log');
    const log = createUsageLog({ enabled: true, destination: file, level: 'info' }, () => ({ instance: 't', config: '1' }));
    const ids = [
      ...Array.from({ length: 300 }, (_, i) => `short-${i}-é`),
      'é😀ü'.repeat(20_000),
      'plain',
      'x'.repeat(70_000),
      ...Array.from({ length: 100 }, (_, i) => `${'😀'.repeat(i * 50)}${i}`),
    ];
    for (const requestId of ids) log.sink({ requestId, startedAt: 0, method: 'GET', operation: 'recipes.search', insecure: false, status: 200 });
    await log.close();
    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as { requestId: string }).requestId)).toEqual(ids);
  });
});

/**
 * The usage log gathers request lines in memory and writes them in batches. A process that ends
 * without closing the log still writes every line it gathered, whether it calls process.exit()
 * or simply runs out of work, in the order the requests were recorded.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/log-fixtures.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A process that records `count` requests to a usage log at `file` (then a note, if asked), and ends as `ending` says. */
function recordAndEnd(file: string, count: number, ending: 'exit' | 'idle', note = false): Promise<number | null> {
  const script = `
    import { createUsageLog } from './src/observability/node/usage-log.ts';
    const log = createUsageLog({ enabled: true, destination: ${JSON.stringify(file)}, level: 'info' }, () => ({ instance: 't', config: '1' }));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the file is open
    for (let i = 0; i < ${count}; i++) {
      log.sink({ requestId: 'r' + i, startedAt: 0, method: 'GET', operation: 'recipes.search', insecure: false, status: 200 });
    }
    ${note ? "log.logger.info('after the requests');" : ''}
    ${ending === 'exit' ? 'process.exit(0);' : ''}
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, stdio: 'inherit' });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('usage log lines gathered in memory', () => {
  for (const ending of ['exit', 'idle'] as const) {
    it(`are all written, in order, when the process ends by ${ending === 'exit' ? 'process.exit()' : 'running out of work'}`, async () => {
      const file = join(await tempDir(), 'usage.log');
      expect(await recordAndEnd(file, 25, ending)).toBe(0);
      expect(await linesOf(file)).toEqual(Array.from({ length: 25 }, (_, i) => `r${i}`));
    });
  }

  it('are written before a line the logger writes after them', async () => {
    const file = join(await tempDir(), 'usage.log');
    expect(await recordAndEnd(file, 3, 'exit', true)).toBe(0);
    expect(await linesOf(file)).toEqual(['r0', 'r1', 'r2', 'after the requests']);
  });
});

/** Each line's request id, or its message when it has none. */
async function linesOf(file: string): Promise<string[]> {
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
  return lines.map((line) => {
    const parsed = JSON.parse(line) as { requestId?: string; msg: string };
    return parsed.requestId ?? parsed.msg;
  });
}

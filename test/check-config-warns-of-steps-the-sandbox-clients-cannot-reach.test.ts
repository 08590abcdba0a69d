/**
 * A plan tried on the sandbox with a percentage step none of its clients falls in would wait there
 * for ever: `--check-config` warns, naming the step, and still says the file is valid (exit 0).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGateway } from './support/run-script.js';

const planned = (steps: unknown[]) => ({
  upstreams: { legacy: { baseUrl: 'http://127.0.0.1:1' }, api2: { baseUrl: 'https://127.0.0.1:2' } },
  routes: { 'recipes.search': { rollout: { steps, gates: { shadowAgreement: { min: 0.99, minComparisons: 100 } } } } },
});

describe('--check-config on a plan', () => {
  it('warns of a step the sandbox clients cannot reach, and of no other', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reach-'));
    const file = join(dir, 'gateway.json');
    await writeFile(file, JSON.stringify(planned(['shadow', 0.5, 50, 100])));
    const run = await runGateway(['--config', file, '--check-config'], { GATEWAY_CONFIG: '' });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(`${file}: valid`);
    const warnings = run.stderr.split('\n').filter((line) => line.includes('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/routes\["recipes\.search"\]\.rollout\.steps\[1\]: the 0.5 % step holds none of the \d+ sandbox clients/);
  }, 60_000);
});

/**
 * `npm test` first runs scripts/test-setup.sh (the `pretest` script): on a fresh Debian machine it
 * installs the packages the suite needs beyond npm, or stops with one line naming them and the
 * command that installs them. Never a silent skip.
 *
 * Each case runs the real script with a PATH of our own: `sh`, `tr` and `env` from the machine, and
 * stand-ins for the rest, and a folder of its own for /usr/sbin (`id` says root, `apt-get` records its calls and succeeds or fails, the
 * packages' binaries exist or not). Nothing is installed on the machine.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', 'scripts', 'test-setup.sh');
const INSTALL = 'apt-get install -y --no-install-recommends';
let bin: string;

beforeEach(async () => {
  bin = await mkdtemp(join(tmpdir(), 'test-setup-'));
  for (const tool of ['sh', 'tr', 'env', 'cat']) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    await symlink(found, join(bin, tool));
  }
  await executable('id', 'echo 0');
});
afterEach(() => rm(bin, { recursive: true, force: true }));

async function executable(name: string, body: string): Promise<void> {
  await writeFile(join(bin, name), `#!${join(bin, 'sh')}\n${body}\n`);
  await chmod(join(bin, name), 0o755);
}

/** An apt-get that logs each call (with DEBIAN_FRONTEND) and, when `installs`, creates the binaries. */
function fakeAptGet(installs: boolean): Promise<void> {
  const log = join(bin, 'apt-calls');
  const create = installs
    ? `if [ "$1" = install ]; then for p in "$@"; do case "$p" in -*|install) ;; *) printf '#!/bin/sh\\n' > "${bin}/$p"; chmod 755 "${bin}/$p";; esac; done; exit 0; fi`
    : '[ "$1" = install ] && exit 100';
  return executable('apt-get', `echo "$DEBIAN_FRONTEND $*" >> ${log}\n${create}\nexit 0`);
}

function runSetup(): { code: number | null; stdout: string; stderrLines: string[] } {
  const env = { PATH: bin, TMPDIR: bin, TEST_SETUP_SBIN_DIRS: join(bin, 'sbin') };
  const run = spawnSync(join(bin, 'sh'), [SCRIPT], { env, encoding: 'utf8', timeout: 30_000 });
  return { code: run.status, stdout: run.stdout, stderrLines: run.stderr.split('\n').filter(Boolean) };
}

describe('the test setup step (pretest)', () => {
  it('does nothing and says nothing when chromium, redis-server and clickhouse are all on PATH', async () => {
    for (const name of ['chromium', 'redis-server', 'clickhouse']) await executable(name, 'exit 0');
    expect(runSetup()).toEqual({ code: 0, stdout: '', stderrLines: [] });
  });

  it('finds a server binary in the sbin folder a normal user\'s PATH lacks (Debian puts clickhouse-server there)', async () => {
    for (const name of ['chromium', 'redis-server']) await executable(name, 'exit 0');
    await mkdir(join(bin, 'sbin'));
    await executable('sbin/clickhouse-server', 'exit 0');
    expect(runSetup()).toEqual({ code: 0, stdout: '', stderrLines: [] });
  });

  it('without apt-get, stops with one line naming the missing package and the command to install it', async () => {
    await executable('redis-server', 'exit 0');
    await executable('clickhouse-server', 'exit 0');
    const run = runSetup();
    expect(run.code).toBe(1);
    expect(run.stderrLines).toEqual([`test setup: missing Debian package(s) chromium (no apt-get on this machine): install with: sudo ${INSTALL} chromium`]);
  });

  it('as root with apt-get, installs every missing package non-interactively without recommends', async () => {
    await fakeAptGet(true);
    const run = runSetup();
    expect(run.code).toBe(0);
    const calls = (await readFile(join(bin, 'apt-calls'), 'utf8')).trim().split('\n');
    expect(calls).toEqual([`noninteractive install -y --no-install-recommends chromium redis-server clickhouse-server`]);
    expect(run.stderrLines.at(-1)).toBe('test setup: installed chromium redis-server clickhouse-server');
  });

  it('refreshes the package lists once when the install fails, and stops with one line when it fails again', async () => {
    await executable('chromium', 'exit 0');
    await fakeAptGet(false);
    const run = runSetup();
    expect(run.code).toBe(1);
    const calls = (await readFile(join(bin, 'apt-calls'), 'utf8')).trim().split('\n');
    expect(calls).toEqual([
      'noninteractive install -y --no-install-recommends redis-server clickhouse-server',
      'noninteractive update',
      'noninteractive install -y --no-install-recommends redis-server clickhouse-server',
    ]);
    expect(run.stderrLines.at(-1)).toMatch(/^test setup: missing Debian package\(s\) redis-server clickhouse-server \(apt-get install failed, its output is in .+\): install with: sudo apt-get install -y --no-install-recommends redis-server clickhouse-server$/);
  });

  it('as a user without passwordless sudo, names the packages and the command instead of trying', async () => {
    await executable('id', 'echo 1000');
    await fakeAptGet(true);
    const run = runSetup();
    expect(run.code).toBe(1);
    expect(run.stderrLines).toEqual([
      `test setup: missing Debian package(s) chromium redis-server clickhouse-server (not root, and no passwordless sudo): install with: sudo ${INSTALL} chromium redis-server clickhouse-server`,
    ]);
  });
});

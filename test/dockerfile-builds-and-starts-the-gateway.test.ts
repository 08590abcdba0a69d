/**
 * The Dockerfile, checked as far as a machine without a Docker engine can:
 *
 * - its shape: multi-stage (a `build` stage, then a production stage with production
 *   dependencies only), a Node LTS `-slim` base, a non-root user, a HEALTHCHECK on /healthz, the
 *   config from a mounted file (`GATEWAY_CONFIG`), no sandbox unless asked;
 * - its build stage, replayed: the files it COPYs are copied from the repository into an empty
 *   directory (so the build cannot lean on anything the image would not have), `npm ci` is stood
 *   in for by this repository's node_modules, and its other RUN steps (`npm run build`) are run;
 * - its production stage, replayed: its COPY sources exist (`--from=build` ones in the replayed
 *   build's output), every package the built gateway imports is a production dependency (so
 *   `npm ci --omit=dev` suffices), and the lock file agrees with package.json (or `npm ci` fails);
 * - its ENTRYPOINT + CMD, run with the image's ENV and a config file written here (pointing at a
 *   legacy sandbox): the gateway starts, /healthz answers 200, a request reaches the backend, the
 *   HEALTHCHECK command itself exits 0, and SIGTERM (docker stop) ends it with status 0. Without a
 *   config file it refuses to start (no sandbox by default); `--sandbox` starts the sandbox.
 *
 * Not checked (needs an engine): the base image pull, `npm ci` from the registry, the `node`
 * user's permissions, the HEALTHCHECK timing.
 */
import { freePort } from './support/started-process.js';
import { runBounded } from './support/run-script.js';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedNodeFlags } from '../bench/node-flags.js';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';

const ROOT = new URL('..', import.meta.url).pathname;

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

interface Stage {
  readonly from: string;
  readonly name: string | undefined;
  readonly instructions: Instruction[];
}

/** Dockerfile → stages of instructions (continuations joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (current === '' && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
    if (current !== '' && line.trimStart().startsWith('#')) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push((current + line).trim());
    current = '';
  }
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = line.slice(keyword.length).trim();
    if (keyword.toUpperCase() === 'FROM') {
      const [image = '', as, name] = rest;
      stages.push({ from: image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

/** Exec form (JSON array) or shell form. */
function commandOf(args: string): { exec: string[] } | { shell: string } {
  if (args.startsWith('[')) return { exec: JSON.parse(args) as string[] };
  return { shell: args };
}

interface Copy {
  readonly from: string | undefined;
  readonly sources: string[];
  readonly dest: string;
}

function copiesOf(stage: Stage): Copy[] {
  return stage.instructions
    .filter((i) => i.keyword === 'COPY')
    .map((i) => {
      const words = i.args.split(/\s+/);
      const flags = words.filter((w) => w.startsWith('--'));
      const paths = words.filter((w) => !w.startsWith('--'));
      const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
      return { from, sources: paths.slice(0, -1), dest: paths.at(-1) ?? '' };
    });
}

function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of stage.instructions.filter((x) => x.keyword === 'ENV')) {
    for (const match of i.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)) env[match[1] as string] = (match[2] as string).replace(/^"|"$/g, '');
  }
  return env;
}

function workdirOf(stage: Stage): string {
  return stage.instructions.filter((i) => i.keyword === 'WORKDIR').at(-1)?.args ?? '/';
}

const run = (command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }) => runBounded(command, args, { ...options, until: 'close' });


async function waitForHealth(origin: string, child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${origin}/healthz`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no /healthz answer:\n${output()}`);
}

const dockerfile = parseDockerfile(await readFile(join(ROOT, 'Dockerfile'), 'utf8'));
const buildStage = dockerfile.find((s) => s.name === 'build');
const production = dockerfile.at(-1) as Stage;
const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

describe('Dockerfile shape', () => {
  it('is multi-stage: a build stage, then a production stage on a Node LTS slim base', () => {
    expect(dockerfile.length).toBeGreaterThanOrEqual(2);
    expect(buildStage, 'a stage named build').toBeDefined();
    expect(production).not.toBe(buildStage);
    for (const stage of dockerfile) {
      const match = /^node:(\d+)(?:\.\d+)*-slim$/.exec(stage.from);
      expect(match, `${stage.from}: a node:<major>-slim base`).not.toBeNull();
      const major = Number(match?.[1]);
      expect(major % 2, 'an LTS line (even major)').toBe(0);
      expect(major, 'a supported LTS line').toBeGreaterThanOrEqual(22);
    }
  });

  it('installs production dependencies only in the final stage, and runs as a non-root user', () => {
    const runs = production.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /npm ci\b.*--omit=dev/.test(r))).toBe(true);
    expect(runs.some((r) => /npm (install|ci)\b(?!.*--omit=dev)/.test(r)), 'no install with dev dependencies').toBe(false);
    const user = production.instructions.filter((i) => i.keyword === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(user);
    const entry = production.instructions.findIndex((i) => i.keyword === 'ENTRYPOINT' || i.keyword === 'CMD');
    const userAt = production.instructions.findIndex((i) => i.keyword === 'USER');
    expect(userAt).toBeLessThan(entry);
  });

  it('has a HEALTHCHECK on /healthz, the config from a mounted file, and no sandbox by default', () => {
    const health = production.instructions.find((i) => i.keyword === 'HEALTHCHECK');
    expect(health?.args).toMatch(/\/healthz/);
    expect(envOf(production)['GATEWAY_CONFIG']).toMatch(/^\/.+\.json$/);
    const command = production.instructions.filter((i) => i.keyword === 'ENTRYPOINT' || i.keyword === 'CMD').map((i) => i.args).join(' ');
    expect(command).not.toMatch(/--sandbox/);
    expect(command).not.toMatch(/tsx|npm start/);
  });

  it('runs node with the Node flags of npm run serve (the ones the bench measures)', () => {
    const entry = production.instructions.find((i) => i.keyword === 'ENTRYPOINT');
    const [program, ...args] = (commandOf(entry?.args ?? '[]') as { exec: string[] }).exec;
    expect(program).toBe('node');
    const flags = args.slice(0, args.findIndex((arg) => !arg.startsWith('--')));
    expect(flags).toEqual(servedNodeFlags());
    expect(flags.length).toBeGreaterThan(0);
  });

  it('has a lock file that agrees with package.json (npm ci refuses otherwise)', async () => {
    const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }> };
    expect(lock.packages['']?.dependencies).toEqual(pkg.dependencies);
    expect(lock.packages['']?.devDependencies).toEqual(pkg.devDependencies);
  });
});

describe('Dockerfile replayed without an engine', () => {
  let work: string;
  let buildDir: string;
  let appDir: string;
  let sandbox: StartedLegacySandbox;
  let configFile: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'dockerfile-'));
    buildDir = join(work, 'build');
    appDir = join(work, 'app');
    sandbox = await startLegacySandbox();
    configFile = join(work, 'gateway.json');
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await sandbox?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Replays a stage's COPY and RUN steps into `dir` (the stage's WORKDIR). */
  async function replay(stage: Stage, dir: string, stageDirs: Record<string, string>): Promise<void> {
    await mkdir(dir, { recursive: true });
    const workdir = workdirOf(stage);
    for (const instruction of stage.instructions) {
      if (instruction.keyword === 'COPY') {
        const [copy] = copiesOf({ ...stage, instructions: [instruction] });
        if (!copy) continue;
        for (const source of copy.sources) {
          let from: string;
          if (copy.from !== undefined) {
            const stageDir = stageDirs[copy.from];
            expect(stageDir, `COPY --from=${copy.from}: a stage that was replayed`).toBeDefined();
            const inStage = source.startsWith('/') ? source : join(workdir, source);
            // The source stage's WORKDIR is its replay directory.
            const sourceStage = dockerfile.find((s) => s.name === copy.from) as Stage;
            const rel = inStage.slice(workdirOf(sourceStage).length).replace(/^\//, '');
            from = join(stageDir as string, rel);
          } else {
            from = join(ROOT, source);
          }
          expect(existsSync(from), `COPY ${copy.from ? `--from=${copy.from} ` : ''}${source}: exists (${from})`).toBe(true);
          const destDir = copy.dest.endsWith('/') || copy.sources.length > 1 ? join(dir, copy.dest) : dir;
          const target = copy.dest.endsWith('/') || copy.sources.length > 1 ? join(destDir, source.split('/').at(-1) as string) : join(dir, copy.dest);
          await cp(from, target, { recursive: true });
        }
      } else if (instruction.keyword === 'RUN') {
        for (const step of instruction.args.split('&&').map((s) => s.trim())) {
          if (/^npm ci\b/.test(step)) {
            // Stand-in for the registry: this repository's node_modules (a superset of what
            // `--omit=dev` installs; the production-dependency test below closes that gap).
            if (!existsSync(join(dir, 'node_modules'))) await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
            continue;
          }
          if (/^npm cache clean\b/.test(step)) continue;
          const result = await run('sh', ['-c', step], { cwd: dir, timeoutMs: 90_000 });
          expect(result.code, `RUN ${step}\n${result.output}`).toBe(0);
        }
      }
    }
  }

  it('builds: the build stage, from only the files it copies', async () => {
    await replay(buildStage as Stage, buildDir, {});
    expect(existsSync(join(buildDir, 'dist', 'src', 'node', 'main.js'))).toBe(true);
  }, 120_000);

  it('assembles the production stage: every COPY source exists, --from=build ones in the build output', async () => {
    expect(existsSync(join(buildDir, 'dist')), 'the build stage ran').toBe(true);
    await replay(production, appDir, { build: buildDir });
    const command = [...production.instructions].filter((i) => i.keyword === 'ENTRYPOINT' || i.keyword === 'CMD');
    const entry = command.find((i) => i.keyword === 'ENTRYPOINT');
    const exec = commandOf(entry?.args ?? command.at(-1)?.args ?? '');
    expect('exec' in exec, 'exec form, so node is PID 1 and receives SIGTERM').toBe(true);
    // The script node runs: its first argument that is not a flag.
    if ('exec' in exec) expect(existsSync(join(appDir, exec.exec.slice(1).find((arg) => !arg.startsWith('-')) ?? ''))).toBe(true);
  });

  it('needs only production dependencies at run time (npm ci --omit=dev is enough)', async () => {
    const result = await build({
      entryPoints: [join(appDir, 'dist', 'src', 'node', 'main.js')],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      metafile: true,
      logLevel: 'silent',
    });
    const builtins = new Set(builtinModules);
    const packages = new Set<string>();
    for (const input of Object.values(result.metafile.inputs)) {
      for (const imported of input.imports) {
        if (!imported.external || imported.path.startsWith('node:') || builtins.has(imported.path)) continue;
        const parts = imported.path.split('/');
        packages.add(imported.path.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
      }
    }
    expect(packages.size).toBeGreaterThan(0);
    for (const name of packages) expect(Object.keys(pkg.dependencies), `${name} is imported by the built gateway`).toContain(name);
  });

  /** The image's ENTRYPOINT + CMD, with the image's ENV over a clean environment. */
  function startImageCommand(envOverrides: Record<string, string>, extraArgs: string[] = []): { child: ChildProcess; output: () => string } {
    const entry = production.instructions.find((i) => i.keyword === 'ENTRYPOINT');
    const cmd = production.instructions.filter((i) => i.keyword === 'CMD').at(-1);
    const argv = [...(entry ? (commandOf(entry.args) as { exec: string[] }).exec : []), ...(cmd ? (commandOf(cmd.args) as { exec: string[] }).exec : []), ...extraArgs];
    const [program = 'node', ...args] = argv;
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: work, ...envOf(production), ...envOverrides };
    const child = spawn(program === 'node' ? process.execPath : program, args, { cwd: appDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    return { child, output: () => out };
  }

  it('starts the built gateway with a mounted config file: /healthz, a real request, the HEALTHCHECK command, SIGTERM', async () => {
    await writeFile(configFile, JSON.stringify({ upstreams: { legacy: { baseUrl: sandbox.origin } }, legacyHosts: ['api.bigoven.com'], listen: { host: '127.0.0.1' } }));
    const port = await freePort();
    const { child, output } = startImageCommand({ GATEWAY_CONFIG: configFile, PORT: String(port) });
    const origin = `http://127.0.0.1:${port}`;
    await waitForHealth(origin, child, output);

    const search = await fetch(`${origin}/recipes?title_kw=soup&rpp=2&api_key=sandbox-free-key`, { headers: { accept: 'application/json' } });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { Results: unknown[] }).Results).toHaveLength(2);
    expect(output()).toContain(sandbox.origin);
    expect(output(), 'no sandbox without --sandbox').not.toMatch(/sandbox legacy backend:/);

    const health = production.instructions.find((i) => i.keyword === 'HEALTHCHECK')?.args ?? '';
    const check = health.slice(health.indexOf('CMD ') + 4);
    const probe = await run('sh', ['-c', check.replace(/^node /, `"${process.execPath}" `)], { cwd: appDir, env: { PATH: process.env['PATH'], ...envOf(production), PORT: String(port) }, timeoutMs: 10_000 });
    expect(probe.code, `HEALTHCHECK ${check}\n${probe.output}`).toBe(0);

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const stopped = await run('sh', ['-c', check.replace(/^node /, `"${process.execPath}" `)], { cwd: appDir, env: { PATH: process.env['PATH'], PORT: String(port) }, timeoutMs: 10_000 });
    expect(stopped.code, 'HEALTHCHECK fails once the gateway is gone').not.toBe(0);
  }, 60_000);

  it('refuses to start without its config file (never falls back to the sandbox); --check-config validates it', async () => {
    const missing = startImageCommand({ GATEWAY_CONFIG: join(work, 'not-mounted.json'), PORT: String(await freePort()) });
    // 'close': exited, and its output read to the end ('exit' may come before the last of it).
    const code = await new Promise<number | null>((resolve) => missing.child.once('close', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(missing.output()).toMatch(/not-mounted\.json: cannot be read/);

    const checked = startImageCommand({ GATEWAY_CONFIG: configFile }, ['--check-config']);
    expect(await new Promise((resolve) => checked.child.once('close', (c) => resolve(c)))).toBe(0);
    expect(checked.output()).toContain('valid');
  }, 30_000);

  it('starts the embedded sandbox only when asked (--sandbox)', async () => {
    const port = await freePort();
    const { child, output } = startImageCommand({ PORT: String(port), ADMIN_PORT: '0' }, ['--sandbox']);
    await waitForHealth(`http://127.0.0.1:${port}`, child, output);
    expect(output()).toMatch(/sandbox legacy backend:/);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);
});

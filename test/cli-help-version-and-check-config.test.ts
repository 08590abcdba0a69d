/**
 * The gateway's command line as an operator meets it: --help and --version answer; --check-config
 * reads every file the config names and parses each PEM, naming key and file; every error of a
 * file comes in one run (schema, cross-section and file errors together); JSON and YAML syntax
 * errors give a line and a column. (A garbage PEM at start and a busy admin port: test/start-
 * writes-only-usage-lines-and-fails-in-one-line.test.ts.)
 */
import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_VERSION } from '../src/gateway/product.js';
import { REPO_ROOT } from './support/started-process.js';
import { runGateway } from './support/run-script.js';

let dir: string;
let cert: string;
let key: string;
let otherKey: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-'));
  const options = { keySize: 2048, algorithm: 'sha256' } as const;
  const one = await generate([{ name: 'commonName', value: 'gateway.test' }], options);
  const two = await generate([{ name: 'commonName', value: 'other.test' }], options);
  cert = join(dir, 'cert.pem');
  key = join(dir, 'key.pem');
  otherKey = join(dir, 'other-key.pem');
  await writeFile(cert, one.cert);
  await writeFile(key, one.private);
  await writeFile(otherKey, two.private);
  await writeFile(join(dir, 'garbage.pem'), '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n');
  await writeFile(join(dir, 'not-pem.txt'), 'hello\n');
  await writeFile(join(dir, 'short-token'), 'short\n');
}, 60_000);

/** The gateway process with none of the environment this machine may have set for it. */
const run = (args: readonly string[], env: Record<string, string> = {}) => runGateway(args, { GATEWAY_CONFIG: '', PORT: '', ADMIN_PORT: '', GATEWAY_ADMIN_TOKEN: '', ...env });

async function configFile(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

const base = { listen: { host: '127.0.0.1', port: 0 }, upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9' } }, observability: { log: { enabled: false } } };

// Each test runs its own processes on its own files: they run side by side (issue 49).
describe.concurrent('--help and --version', () => {
  it('--help lists the options and the environment, exit 0', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const word of ['--config', '--check-config', '--workers', '--version', 'PORT', 'ADMIN_PORT', 'GATEWAY_HASH_KEY', 'GATEWAY_ADMIN_TOKEN', 'GATEWAY_CONFIG']) expect(help.stdout).toContain(word);
    expect(help.stderr).toBe('');
  }, 60_000);

  it('--help names every start flag and environment variable the README and docs name', async () => {
    const { readdir } = await import('node:fs/promises');
    const docs = ['README.md', ...(await readdir(join(REPO_ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
    const text = (await Promise.all(docs.map((name) => readFile(join(REPO_ROOT, name), 'utf8')))).join('\n');
    const flags = new Set<string>();
    for (const [, args = ''] of text.matchAll(/(?:npm start --|npm run serve --|docker run [^\n`]*? recipe-gateway)((?: +--?[a-z][a-z0-9-]*(?: +[A-Za-z0-9.|/_-]+)?)+)/g)) {
      for (const [flag] of args.matchAll(/--[a-z][a-z0-9-]*/g)) flags.add(flag);
    }
    // Upper-case names the code declares (a table such as SANDBOX_BEHAVIOUR) are not variables.
    const sources = await readdir(join(REPO_ROOT, 'src'), { recursive: true });
    const code = (await Promise.all(sources.filter((name) => name.endsWith('.ts')).map((name) => readFile(join(REPO_ROOT, 'src', name), 'utf8')))).join('\n');
    const variables = new Set([...text.matchAll(/\b(?:PORT|ADMIN_PORT|GATEWAY_[A-Z_]+|SANDBOX_[A-Z0-9_]+|DEMO_[A-Z_]+)\b/g)].map(([name]) => name).filter((name) => !new RegExp(`const ${name}\\b`).test(code)));
    expect([...flags]).toEqual(expect.arrayContaining(['--config', '--api2', '--demo', '--sandbox', '--print-config']));
    expect([...variables]).toEqual(expect.arrayContaining(['SANDBOX_LEGACY_PORT', 'SANDBOX_API2_PORT', 'SANDBOX_API2_FAULT']));
    const help = (await run(['--help'])).stdout;
    for (const name of [...flags, ...variables]) expect(help, name).toMatch(new RegExp(`(^|\\s)${name}\\b`, 'm'));
  }, 60_000);

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(GATEWAY_VERSION).toBe(pkg.version);
    expect(await run(['--version'])).toEqual({ code: 1 - 1, stdout: `recipe-gateway ${pkg.version}\n`, stderr: '' });
  }, 60_000);

  it('the command --help names is a bin of the package, and every bin, built, starts with a node shebang', async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    const help = await run(['--help']);
    const command = /^\s+(\S+)\s/m.exec(help.stdout.split('\n').find((line) => /^\s+recipe-gateway/.test(line)) ?? '')?.[1];
    expect(command).toBe('recipe-gateway');
    expect(pkg.bin[command!]).toBe('dist/src/node/main.js');
    for (const [name, built] of Object.entries(pkg.bin)) {
      const source = join(REPO_ROOT, built.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
      // As tsc -p tsconfig.build.json emits it (a leading shebang is kept).
      const emitted = ts.transpileModule(await readFile(source, 'utf8'), { compilerOptions: { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022 } }).outputText;
      expect(emitted.startsWith('#!/usr/bin/env node\n'), `${name} (${built})`).toBe(true);
    }
  }, 60_000);

  it('an unknown option: one line that points at --help, exit 1', async () => {
    const result = await run(['--frobnicate']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/Unknown option '--frobnicate'.*--help/);
  }, 60_000);
});

describe.concurrent('--check-config', () => {
  it('a valid https config with its certificate and key, in JSON and in YAML', async () => {
    const https = { ...base, listen: { ...base.listen, https: { port: 0, certFile: cert, keyFile: key } } };
    const json = await configFile('ok.json', JSON.stringify(https));
    expect(await run(['--config', json, '--check-config'])).toMatchObject({ code: 0, stdout: `${json}: valid\n` });
    const yaml = await configFile('ok.yaml', `listen:\n  host: 127.0.0.1\n  port: 0\n  https: { port: 0, certFile: ${cert}, keyFile: ${key} }\nupstreams:\n  legacy:\n    baseUrl: http://127.0.0.1:9\n`);
    expect(await run(['--config', yaml, '--check-config'])).toMatchObject({ code: 0, stdout: `${yaml}: valid\n` });
  }, 60_000);

  it('every error at once: schema, cross-section, every named file (each naming its key and file) and the environment', async () => {
    const file = await configFile(
      'bad.json',
      JSON.stringify({
        ...base,
        listen: { host: '127.0.0.1', port: 'eighty', https: { port: 0, certFile: join(dir, 'missing.pem'), keyFile: join(dir, 'not-pem.txt') } },
        upstreams: { legacy: { baseUrl: 'http://127.0.0.1:9', caFile: join(dir, 'garbage.pem') } },
        routes: { 'recipes.search': { mode: 'api2' } },
        observability: { log: { enabled: false }, admin: { bearerTokenFile: join(dir, 'short-token') } },
      }),
    );
    const result = await run(['--config', file, '--check-config'], { PORT: 'eighty' });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines.pop()).toBe('PORT (listen.port): a port number from 0 to 65535, got "eighty"');
    expect(lines.every((line) => line.startsWith(`${file}: `))).toBe(true);
    expect(lines.some((line) => /listen\.port: .*number/.test(line))).toBe(true);
    expect(lines.some((line) => /upstreams\.api2: is required when a route calls api2/.test(line))).toBe(true);
    expect(lines.some((line) => line.includes(`listen.https.certFile: ${join(dir, 'missing.pem')} cannot be read (ENOENT)`))).toBe(true);
    expect(lines.some((line) => line.includes(`listen.https.keyFile: ${join(dir, 'not-pem.txt')} is not a PEM private key`))).toBe(true);
    expect(lines.some((line) => line.includes(`upstreams.legacy.caFile: ${join(dir, 'garbage.pem')} certificate 1 of 1 cannot be parsed`))).toBe(true);
    expect(lines.some((line) => line.includes(`observability.admin.bearerTokenFile: ${join(dir, 'short-token')} must hold a token of at least 16 characters`))).toBe(true);
  }, 60_000);

  it('a schema error, an admin listener beyond loopback without a token and the rollout checks come in one round; GATEWAY_ADMIN_TOKEN answers the token', async () => {
    const file = await configFile(
      'bad-admin.json',
      JSON.stringify({
        ...base,
        listen: { host: '127.0.0.1', port: 'eighty' },
        workers: 2,
        upstreams: { ...base.upstreams, api2: { baseUrl: 'https://127.0.0.1:9' } },
        routes: { 'reviews.create': { rollout: { steps: [10, 100] } } },
        rollout: { stateFile: join(dir, 'rollout.json') },
        observability: { log: { enabled: false }, admin: { listen: { host: '0.0.0.0', port: 0 } } },
      }),
    );
    const result = await run(['--config', file, '--check-config']);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines.every((line) => line.startsWith(`${file}: `))).toBe(true);
    expect(lines.some((line) => /listen\.port: .*number/.test(line))).toBe(true);
    expect(lines.some((line) => line.includes('observability.admin.listen.host: 0.0.0.0 is beyond loopback, so the admin views need a bearer token'))).toBe(true);
    expect(lines.some((line) => line.includes('routes["reviews.create"].rollout: a write\'s rollout starts once the reads of reviews have finished theirs'))).toBe(true);
    expect(lines.some((line) => line.includes('rollout.stateFile: is one process\'s rollout state'))).toBe(true);
    const withToken = await run(['--config', file, '--check-config'], { GATEWAY_ADMIN_TOKEN: 'a-token-long-enough-for-admin' });
    expect(withToken.code).toBe(1);
    expect(withToken.stderr).not.toContain('beyond loopback');
  }, 60_000);

  it('a valid document whose certificate is not a PEM, and a key that is not the certificate\'s, is refused naming keys and files', async () => {
    const notPem = await configFile('cert-not-pem.json', JSON.stringify({ ...base, listen: { ...base.listen, https: { port: 0, certFile: join(dir, 'not-pem.txt'), keyFile: key } } }));
    const first = await run(['--config', notPem, '--check-config']);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain(`listen.https.certFile: ${join(dir, 'not-pem.txt')} holds no PEM certificate`);
    const mismatch = await configFile('mismatch.json', JSON.stringify({ ...base, listen: { ...base.listen, https: { port: 0, certFile: cert, keyFile: otherKey } } }));
    const second = await run(['--config', mismatch, '--check-config']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`listen.https.certFile and listen.https.keyFile: ${cert} and ${otherKey} are not a certificate and its key`);
  }, 60_000);

  it('JSON and YAML syntax errors give a line and a column', async () => {
    const json = await configFile('syntax.json', '{\n  "listen": { "port": 8080 },\n  "upstreams": }\n');
    const jsonResult = await run(['--config', json, '--check-config']);
    expect(jsonResult.code).toBe(1);
    expect(jsonResult.stderr).toMatch(new RegExp(`^${json}: is not valid JSON: line 3, column 16: unexpected "}"`));
    const yaml = await configFile('syntax.yaml', 'listen:\n  port: 8080\nupstreams: [legacy\n');
    const yamlResult = await run(['--config', yaml, '--check-config']);
    expect(yamlResult.code).toBe(1);
    expect(yamlResult.stderr).toMatch(new RegExp(`^${yaml}: is not valid YAML: line \\d+, column \\d+: `));
  }, 60_000);
});

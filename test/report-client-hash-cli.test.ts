/**
 * `npm run client-hash` as a command: the hash of an api_key by the usage log's formula, from the
 * arguments or stdin, with the key from the gateway config (or GATEWAY_HASH_KEY, which overrides it
 * as in npm start, or --hash-key-env), `clientLabels` lines with --label, exit 2 with a message for
 * a config without hashKey or a bad option, the api_key never echoed, and the same hash as a real
 * gateway writes in its usage log.
 */
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLegacySandbox } from '../src/sandbox/start.js';
import type { StartedLegacySandbox } from '../src/sandbox/start.js';
import { startTestGateway } from './support/gateway.js';
import { send } from './support/http.js';
import { tempDir } from './support/log-fixtures.js';
import { nodeArgsOf } from './support/entry.js';

const node = process.execPath;
const HASH_KEY = 'client-hash-cli-test-key-01';
const API_KEY = 'sandbox-free-key';
const OTHER_KEY = 'partner-key-7f3c9a';
const hash16 = (key: string, apiKey: string): string => createHmac('sha256', key).update(`api_key\n${apiKey}`).digest('hex').slice(0, 16);

interface Outcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the command with GATEWAY_HASH_KEY and GATEWAY_CONFIG unset unless `env` sets them. */
function clientHash(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<Outcome> {
  const env: NodeJS.ProcessEnv = { ...process.env, GATEWAY_HASH_KEY: '', GATEWAY_CONFIG: '', ...options.env };
  return new Promise((resolve) => {
    const child = execFile(node, [...nodeArgsOf('src/cli/client-hash.ts'), ...args], { env }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.stdin ?? '');
  });
}

function expectNoApiKey(outcome: Outcome, ...apiKeys: string[]): void {
  for (const apiKey of apiKeys) {
    expect(outcome.stdout).not.toContain(apiKey);
    expect(outcome.stderr).not.toContain(apiKey);
  }
}

async function configFile(observability: Record<string, unknown>, legacyOrigin = 'http://127.0.0.1:9'): Promise<string> {
  const file = join(await tempDir(), 'gateway.json');
  await writeFile(file, JSON.stringify({ upstreams: { legacy: { baseUrl: legacyOrigin } }, observability }));
  return file;
}

let withKey: string;
let withoutKey: string;
beforeAll(async () => {
  withKey = await configFile({ hashKey: HASH_KEY });
  withoutKey = await configFile({});
});

describe('client-hash command', () => {
  it('prints the usage-log hash of each api_key given as an argument, never the key', async () => {
    const outcome = await clientHash(['--config', withKey, API_KEY, OTHER_KEY]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toBe(`${hash16(HASH_KEY, API_KEY)}\n${hash16(HASH_KEY, OTHER_KEY)}\n`);
    expect(outcome.stderr).toContain(`2 api key(s) hashed with observability.hashKey of ${withKey}`);
    expectNoApiKey(outcome, API_KEY, OTHER_KEY);
    expect(outcome.stderr).not.toContain(HASH_KEY);
  });

  it('reads api keys one per line from stdin when none is given, and prints clientLabels lines with --label', async () => {
    const plain = await clientHash(['--config', withKey], { stdin: `${API_KEY}\r\n\n${OTHER_KEY}` });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(`${hash16(HASH_KEY, API_KEY)}\n${hash16(HASH_KEY, OTHER_KEY)}\n`);
    expectNoApiKey(plain, API_KEY, OTHER_KEY);

    const labelled = await clientHash(['--config', withKey, '--label', 'mobile-app'], { stdin: `${API_KEY}\n${OTHER_KEY}\n${API_KEY}\n` });
    expect(labelled.code).toBe(0);
    expect(labelled.stdout).toBe(`  "${hash16(HASH_KEY, API_KEY)}": "mobile-app",\n  "${hash16(HASH_KEY, OTHER_KEY)}": "mobile-app"\n`);
    expectNoApiKey(labelled, API_KEY, OTHER_KEY);
    // Pasted between braces, the lines are the clientLabels object the config accepts.
    expect(JSON.parse(`{${labelled.stdout}}`)).toEqual({ [hash16(HASH_KEY, API_KEY)]: 'mobile-app', [hash16(HASH_KEY, OTHER_KEY)]: 'mobile-app' });
  });

  it('takes the key from GATEWAY_HASH_KEY over the file, as npm start does, or from --hash-key-env', async () => {
    const override = 'override-hash-key-0000001';
    const [fromGatewayEnv, fromEnv, short, unset] = await Promise.all([
      clientHash(['--config', withoutKey, API_KEY], { env: { GATEWAY_HASH_KEY: override } }),
      clientHash(['--hash-key-env', 'MY_HASH_KEY', API_KEY], { env: { MY_HASH_KEY: HASH_KEY } }),
      clientHash(['--hash-key-env', 'MY_HASH_KEY', API_KEY], { env: { MY_HASH_KEY: 'too-short' } }),
      clientHash(['--hash-key-env', 'NOT_SET_ANYWHERE', API_KEY]),
    ]);
    expect(fromGatewayEnv).toMatchObject({ code: 0, stdout: `${hash16(override, API_KEY)}\n` });
    expect(fromGatewayEnv.stderr).toContain('GATEWAY_HASH_KEY (it overrides observability.hashKey');
    expect(fromEnv).toMatchObject({ code: 0, stdout: `${hash16(HASH_KEY, API_KEY)}\n` });
    expect(short).toMatchObject({ code: 2, stdout: '' });
    expect(short.stderr).toContain('MY_HASH_KEY: must be at least 16 characters');
    expect(unset).toMatchObject({ code: 2, stderr: expect.stringContaining('NOT_SET_ANYWHERE: is not set') });
  });

  it('exits 2 explaining the random per-start key when the config has no hashKey', async () => {
    const outcome = await clientHash(['--config', withoutKey, API_KEY]);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain(`${withoutKey}: has no observability.hashKey`);
    expect(outcome.stderr).toContain('draws a random key at every start');
    expectNoApiKey(outcome, API_KEY);
  });

  it('exits 2 for a config the gateway would refuse, bad usage, or no key at all, without echoing an api key', async () => {
    const invalid = await configFile({ hashKey: 'short' });
    const [refused, noConfig, dashed, afterSeparator, both, emptyStdin, badLabel] = await Promise.all([
      clientHash(['--config', invalid, API_KEY]),
      clientHash([API_KEY]),
      // A key that looks like an option is an unknown option: refused, and not repeated.
      clientHash(['--config', withKey, '--dashed-api-key-123']),
      // After --, it is a key like any other.
      clientHash(['--config', withKey, '--', '--dashed-api-key-123']),
      clientHash(['--config', withKey, '--hash-key-env', 'X', API_KEY]),
      clientHash(['--config', withKey]),
      clientHash(['--config', withKey, '--label', 'x'.repeat(65), API_KEY]),
    ]);
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining(`${invalid}: observability.hashKey: must be at least 16 characters`) });
    expect(noConfig).toMatchObject({ code: 2, stderr: expect.stringContaining('--config FILE (or GATEWAY_CONFIG) or --hash-key-env VAR is needed') });
    expectNoApiKey(noConfig, API_KEY);
    expect(dashed.code).toBe(2);
    expectNoApiKey(dashed, 'dashed-api-key-123');
    expect(afterSeparator).toMatchObject({ code: 0, stdout: `${hash16(HASH_KEY, '--dashed-api-key-123')}\n` });
    expect(both).toMatchObject({ code: 2, stderr: expect.stringContaining('either --config or --hash-key-env') });
    expect(emptyStdin).toMatchObject({ code: 2, stderr: expect.stringContaining('no api_key given') });
    expect(badLabel).toMatchObject({ code: 2, stderr: expect.stringContaining('--label:') });
  });
});

describe('client-hash agrees with a running gateway', () => {
  let sandbox: StartedLegacySandbox;
  beforeAll(async () => {
    sandbox = await startLegacySandbox();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('prints the client field the gateway logs for that api_key, and the label it then writes', async () => {
    const config = await configFile({ hashKey: HASH_KEY }, sandbox.origin);
    const printed = await clientHash(['--config', config, '--label', 'web-shop'], { stdin: `${API_KEY}\n` });
    expect(printed.code).toBe(0);
    const clientLabels = JSON.parse(`{${printed.stdout}}`) as Record<string, string>;

    const log = join(await tempDir(), 'usage.log');
    const gateway = await startTestGateway(sandbox.origin, { observability: { hashKey: HASH_KEY, clientLabels, log: { destination: log } } });
    const answer = await send(gateway.origin, { target: `/recipes?title_kw=soup&pg=1&rpp=2&api_key=${API_KEY}`, headers: { accept: 'application/json' } });
    await gateway.close();
    expect(answer.status).toBe(200);
    const lines = (await readFile(log, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ client: Object.keys(clientLabels)[0], clientLabel: 'web-shop' });
    expect(`${lines[0]?.['client'] as string}\n`).toBe((await clientHash(['--config', config, API_KEY])).stdout);
  });
});

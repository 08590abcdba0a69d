/**
 * `npm start`: the gateway on Node.
 *
 *   npm start                          sandbox mode: embedded legacy backend on loopback, gateway on :8080
 *   npm start -- --sandbox             sandbox mode even when GATEWAY_CONFIG is set
 *   npm start -- --config FILE         real backends from FILE (or GATEWAY_CONFIG=FILE)
 *   npm start -- --config FILE --check-config   validate FILE and exit (0 valid, 1 invalid)
 *
 * PORT overrides the listen port in both modes; ADMIN_PORT the sandbox admin (metrics) port;
 * GATEWAY_HASH_KEY the key of the usage log's client and user hashes (`observability.hashKey`).
 * The usage log (one JSON line per request) goes to stdout unless `observability.log` says
 * otherwise; the lines below for humans then go to stderr. SIGINT/SIGTERM flush the log.
 */
import { parseArgs } from 'node:util';
import { parseConfig } from '../config/schema.js';
import type { GatewayConfig } from '../config/schema.js';
import { loadConfigFile } from './config-file.js';
import { startGateway } from './server.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      config: { type: 'string' },
      'check-config': { type: 'boolean', default: false },
      sandbox: { type: 'boolean', default: false },
    },
  });
  const configPath = values.sandbox ? undefined : (values.config ?? (process.env['GATEWAY_CONFIG'] || undefined));

  if (values['check-config']) {
    if (!configPath) return fail(['--check-config needs --config FILE or GATEWAY_CONFIG']);
    const result = await loadConfigFile(configPath);
    if (!result.ok) return fail(result.errors);
    console.log(`${configPath}: valid`);
    return;
  }

  const closers: Array<() => Promise<void>> = [];
  let config: GatewayConfig;
  let sandboxNote = '';
  if (configPath) {
    const result = await loadConfigFile(configPath);
    if (!result.ok) return fail(result.errors);
    config = result.config;
  } else {
    // Loaded only in sandbox mode: a gateway with a config file never carries the sandbox.
    const { startLegacySandbox } = await import('../sandbox/start.js');
    const legacySandbox = await startLegacySandbox({ port: Number(process.env['SANDBOX_LEGACY_PORT'] ?? 0) });
    closers.push(() => legacySandbox.close());
    const result = parseConfig({
      upstreams: { legacy: { baseUrl: legacySandbox.origin } },
      legacyHosts: ['api.bigoven.com'],
      // Sandbox: metrics on a loopback admin listener (ADMIN_PORT, default a free port); a fixed,
      // public hash key so client hashes stay the same across runs.
      observability: {
        hashKey: 'sandbox-hash-key-not-a-secret',
        admin: { listen: { host: '127.0.0.1', port: Number(process.env['ADMIN_PORT'] ?? 0) } },
      },
    });
    if (!result.ok) return fail(result.errors);
    config = result.config;
    sandboxNote = `  sandbox legacy backend: ${legacySandbox.origin}  (api keys sandbox-free-key, sandbox-paid-key; users alice:alice-pass, bob:bob-pass)\n`;
  }
  if (process.env['PORT']) config = { ...config, listen: { ...config.listen, port: Number(process.env['PORT']) } };
  const hashKey = process.env['GATEWAY_HASH_KEY'];
  if (hashKey) {
    if (hashKey.length < 16) return fail(['GATEWAY_HASH_KEY: must be at least 16 characters (a random secret)']);
    config = { ...config, observability: { ...config.observability, hashKey } };
  }

  const gateway = await startGateway(config);
  closers.unshift(() => gateway.close());
  const local = `http://127.0.0.1:${new URL(gateway.httpOrigin).port}`;
  // The usage log owns stdout when it writes there: these human lines go to stderr then.
  const log = config.observability.log;
  const out = log.enabled && log.destination === 'stdout' ? process.stderr : process.stdout;
  out.write(
    `recipe-gateway listening on ${gateway.httpOrigin}${gateway.httpsOrigin ? ` and ${gateway.httpsOrigin}` : ''}\n` +
      `  legacy upstream: ${config.upstreams.legacy.baseUrl}\n` +
      sandboxNote +
      (sandboxNote
        ? `try:\n` +
          `  curl '${local}/recipes?title_kw=soup&pg=1&rpp=5&api_key=sandbox-free-key' -H 'Accept: application/json'\n` +
          `  curl -u alice:alice-pass '${local}/grocerylist?api_key=sandbox-free-key' -H 'Accept: application/json'\n`
        : '') +
      `  health: ${local}/healthz\n` +
      `  usage log: ${log.enabled ? log.destination : 'off'}${log.enabled ? '  (report: npm run report -- FILE)' : ''}\n` +
      `  metrics: ${gateway.metricsUrl ?? 'not served'}\n` +
      gateway.notes.map((note) => `  note: ${note}\n`).join(''),
  );

  const stop = (signal: string): void => {
    out.write(`${signal}: closing\n`);
    void Promise.all(closers.map((close) => close())).then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

function fail(errors: string[]): void {
  for (const error of errors) console.error(error);
  process.exitCode = 1;
}

void main();

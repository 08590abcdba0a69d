#!/usr/bin/env node
/**
 * `npm start`: the gateway on Node.
 *
 *   npm start                          sandbox mode: embedded legacy and api2 backends on loopback, gateway on :8080
 *   npm start -- --api2                sandbox mode with every mappable operation routed to api2
 *   npm start -- --sandbox             sandbox mode even when GATEWAY_CONFIG is set
 *   npm start -- --config FILE         real backends from FILE (or GATEWAY_CONFIG=FILE)
 *   npm start -- --config FILE --check-config   validate FILE and exit (0 valid, 1 invalid)
 *   npm start -- --workers N|auto      N node:cluster workers (overrides `workers`; src/node/cluster.ts)
 *   npm start -- --help | --version    usage (src/node/usage.ts), version
 *
 * PORT overrides the listen port in both modes; ADMIN_PORT the admin (metrics) port; GATEWAY_HASH_KEY
 * the key of the usage log's client and user hashes (`observability.hashKey`); GATEWAY_ADMIN_TOKEN
 * the admin views' bearer token. They are applied at start and at every reload alike
 * (src/node/start-config.ts).
 * The usage log (one JSON line per request) goes to stdout unless `observability.log` says
 * otherwise; the lines below for humans then go to stderr. SIGINT/SIGTERM stop accepting, drain the
 * requests in flight (up to limits.shutdownGraceMs), flush the log and exit 0.
 * With a config file, SIGHUP or a change of the file reloads it (validated first; see config-watch.ts).
 */
import { parseArgs } from 'node:util';
import { parseConfig } from '../config/schema.js';
import type { GatewayConfig } from '../config/schema.js';
import { startCluster, workerCount } from './cluster.js';
import { configHash } from './config-hash.js';
import { applyOverrides, loadConfig } from './start-config.js';
import type { Overrides } from './start-config.js';
import { startGateway } from './server.js';
import { describeStartFailure, startProblems } from './start-failure.js';
import { VERSION_LINE, usageText } from './usage.js';

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        config: { type: 'string' },
        'check-config': { type: 'boolean', default: false },
        sandbox: { type: 'boolean', default: false },
        api2: { type: 'boolean', default: false },
        workers: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    }));
  } catch (error) {
    return fail([`recipe-gateway: ${(error as Error).message} (recipe-gateway --help lists the options)`]);
  }
  if (values.help) return void process.stdout.write(usageText());
  if (values.version) return void process.stdout.write(`${VERSION_LINE}\n`);
  const configPath = values.sandbox || values.api2 ? undefined : (values.config ?? (process.env['GATEWAY_CONFIG'] || undefined));
  let workers: GatewayConfig['workers'] | undefined;
  if (values.workers !== undefined) {
    const asked = values.workers === 'auto' ? 'auto' : Number(values.workers);
    if (asked !== 'auto' && !(Number.isInteger(asked) && asked >= 1 && asked <= 256)) return fail([`--workers: "auto" or a whole number from 1 to 256, got ${JSON.stringify(values.workers)}`]);
    workers = asked;
  }
  // What the start applies over the file; every reload applies the same (src/node/start-config.ts).
  const overrides: Overrides = { env: process.env, workers };

  if (values['check-config']) {
    if (!configPath) return fail(['--check-config needs --config FILE or GATEWAY_CONFIG']);
    const result = await loadConfig(configPath, overrides);
    if (!result.ok) return fail(result.errors);
    const problems = await startProblems(result.config);
    if (problems.length > 0) return fail(problems.map((problem) => `${configPath}: ${problem}`));
    for (const warning of await sandboxReach(result.config)) console.error(`${configPath}: warning: ${warning}`);
    console.log(`${configPath}: valid`);
    return;
  }

  const closers: Array<() => Promise<void>> = [];
  let config: GatewayConfig;
  let sandboxNote = '';
  if (configPath) {
    const result = await loadConfig(configPath, overrides);
    if (!result.ok) return fail(result.errors);
    config = result.config;
  } else {
    // Loaded only in sandbox mode: a gateway with a config file never carries the sandbox.
    const { startLegacySandbox } = await import('../sandbox/start.js');
    const { startApi2Sandbox } = await import('../sandbox/api2-start.js');
    const { PLACEHOLDER_PHOTO_URL } = await import('../sandbox/dataset/dataset.js');
    const { capabilities } = await import('../catalogue/movability.js');
    // One dataset behind both sandbox interfaces: a write through either is read through the other.
    const stores = (await import('../sandbox/shared-stores.js')).createSandboxStores();
    const legacySandbox = await startLegacySandbox({ port: Number(process.env['SANDBOX_LEGACY_PORT'] ?? 0), store: stores.legacy });
    closers.push(() => legacySandbox.close());
    const api2Sandbox = await startApi2Sandbox({ port: Number(process.env['SANDBOX_API2_PORT'] ?? 0), store: stores.api2 });
    closers.push(() => api2Sandbox.close());
    const mapped = capabilities().filter((row) => row.mapped).map((row) => row.operation);
    const result = parseConfig({
      upstreams: { legacy: { baseUrl: legacySandbox.origin }, api2: { baseUrl: api2Sandbox.origin, caFile: api2Sandbox.caFile } },
      api2: { noPhotoImageUrl: PLACEHOLDER_PHOTO_URL },
      routes: values.api2 ? Object.fromEntries(mapped.map((id) => [id, { mode: 'api2' }])) : {},
      legacyHosts: ['api.bigoven.com'],
      // Sandbox: metrics on a loopback admin listener (ADMIN_PORT, default a free port); a fixed,
      // public hash key so client hashes stay the same across runs.
      observability: {
        hashKey: 'sandbox-hash-key-not-a-secret',
        admin: { listen: { host: '127.0.0.1', port: Number(process.env['ADMIN_PORT'] ?? 0) } },
      },
    });
    if (!result.ok) return fail(result.errors);
    const applied = applyOverrides(result.config, overrides);
    if (!applied.ok) return fail(applied.errors);
    config = applied.config;
    sandboxNote =
      `  sandbox legacy backend: ${legacySandbox.origin}  (api keys sandbox-free-key, sandbox-paid-key; users alice:alice-pass, bob:bob-pass)\n` +
      `  sandbox api2 backend:   ${api2Sandbox.origin}  (TLS, CA ${api2Sandbox.caFile})\n` +
      `  routes: ${values.api2 ? `${mapped.length} mapped operations answered through api2 (--api2)` : 'every operation on legacy (npm start -- --api2 routes the mapped ones to api2)'}\n`;
  }
  const problems = await startProblems(config);
  if (problems.length > 0) return exitNow([problems.join('; ')]);
  const workerTotal = workerCount(config.workers);
  let gateway: Awaited<ReturnType<typeof startGateway>> | Awaited<ReturnType<typeof startCluster>>;
  try {
    gateway = workerTotal > 1 ? await startCluster(config, workerTotal) : await startGateway(config);
  } catch (error) {
    return exitNow([describeStartFailure(error, config)]);
  }
  closers.unshift(() => gateway.close());
  // The usage log owns stdout when it writes there: these human lines go to stderr then.
  const log = config.observability.log;
  const out = log.enabled && log.destination === 'stdout' ? process.stderr : process.stdout;
  // Installed before anything else is awaited: a signal right after the start still drains.
  // SIGTERM/SIGINT: stop accepting at once, let the requests in flight finish for up to
  // limits.shutdownGraceMs, cut the rest, close everything else, exit 0. A second signal cuts at once.
  const grace = config.limits.shutdownGraceMs;
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      out.write(`${signal}: cutting the requests still in flight\n`);
      void gateway.drain(0);
      return;
    }
    stopping = true;
    out.write(`${signal}: refusing new connections, draining requests in flight (up to ${grace} ms)\n`);
    // A safety net only: drain() itself never waits past its deadline and the pools' close grace.
    const hardStop = setTimeout(() => {
      out.write(`${signal}: shutdown did not finish in time, exiting\n`);
      process.exit(1);
    }, grace + 15_000);
    hardStop.unref();
    gateway
      .drain(grace)
      .then(async (outcome) => {
        out.write(`${signal}: ${outcome.drained ? 'every request in flight answered' : `${outcome.cut} request(s) cut at the deadline`} (${outcome.ms} ms); closing\n`);
        await Promise.all(closers.map((close) => close()));
      })
      .then(
        () => process.exit(0),
        (error: unknown) => {
          out.write(`${signal}: shutdown failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  // Watching before the start is announced: a change made once the gateway says it listens is seen.
  if (configPath) {
    const { watchConfigFile } = await import('./config-watch.js');
    const watcher = watchConfigFile(configPath, gateway, {
      onSignal: true,
      load: (path) => loadConfig(path, overrides),
      report: (result, reason) =>
        out.write(
          result.ok
            ? `config ${reason}: ${result.unchanged ? 'unchanged' : `config ${result.configHash} in force (version ${result.version})`}${result.needsRestart.length > 0 ? ` (restart to apply: ${result.needsRestart.join(', ')})` : ''}\n`
            : `config ${reason}: refused, the config in force stays\n${result.errors.map((e) => `  ${e}`).join('\n')}\n`,
        ),
    });
    closers.push(async () => watcher.close());
    // A change between the read above and the watch (a ConfigMap swapped while the gateway
    // started) is caught up with now; nothing is said when the file is as it was read.
    const now = await loadConfig(configPath, overrides);
    if (now.ok && configHash(now.config) !== gateway.configHash()) void watcher.reloadNow('file changed while starting');
  }
  const local = `http://127.0.0.1:${new URL(gateway.httpOrigin).port}`;
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
}

/** What a plan names that matches no client, and the percentage steps the sandbox's clients cannot reach (a plan tried on the sandbox would wait there for ever). */
async function sandboxReach(config: GatewayConfig): Promise<string[]> {
  if (!Object.values(config.routes).some((route) => route.rollout)) return [];
  const [{ SANDBOX_API_KEYS, SANDBOX_LOGINS }, { unknownClients, unreachedSteps }] = await Promise.all([import('../sandbox/dataset/dataset.js'), import('../migration/rollout/reach.js')]);
  const users = [null, ...Object.values(SANDBOX_LOGINS).map((login) => login.user)];
  return [...unknownClients(config), ...unreachedSteps(config, Object.values(SANDBOX_API_KEYS).flatMap((apiKey) => users.map((user) => ({ apiKey, user }))), 'sandbox')];
}

function fail(errors: string[]): void {
  for (const error of errors) console.error(error);
  process.exitCode = 1;
}

/** A start that failed after the sandbox backends began listening: they must not keep the process up. */
function exitNow(errors: string[]): void {
  for (const error of errors) console.error(`recipe-gateway: ${error}`);
  process.exit(1);
}

main().catch((error: unknown) => exitNow([describeStartFailure(error)]));

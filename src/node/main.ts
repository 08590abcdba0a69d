#!/usr/bin/env node
/**
 * `npm start`: the gateway on Node.
 *
 *   npm start                          sandbox mode: embedded legacy and api2 backends on loopback, gateway on :8080
 *   npm start -- --api2                sandbox mode with every mappable operation routed to api2
 *   npm start -- --demo                sandbox mode with rollout plans, traffic from the sandbox's clients and faults on demand
 *   npm start -- --sandbox             sandbox mode even when GATEWAY_CONFIG is set
 *   npm start -- --sandbox --config FILE   FILE's config on the sandbox backends (src/sandbox/sandbox-config.ts)
 *   npm start -- --demo --print-config     the sandbox's config as a starting point for a real one, and exit
 *   npm start -- --config FILE         real backends from FILE (or GATEWAY_CONFIG=FILE)
 *   npm start -- --config FILE --check-config   validate FILE and exit (0 valid, 1 invalid)
 *   npm start -- --workers N|auto      N node:cluster workers (overrides `workers`; src/node/cluster.ts)
 *   npm start -- --help | --version    usage (src/node/usage.ts), version
 *
 * PORT overrides the listen port in both modes; ADMIN_PORT the admin (metrics) port; GATEWAY_HASH_KEY
 * the key of the usage log's client and user hashes (`observability.hashKey`); GATEWAY_ADMIN_TOKEN
 * the admin views' bearer token. They are applied at start and at every reload alike
 * (src/node/start-config.ts). A sandbox run reads SANDBOX_LEGACY_PORT, SANDBOX_API2_PORT and
 * SANDBOX_API2_FAULT (src/sandbox/sandbox-run.ts); the demo DEMO_RATE and DEMO_REQUESTS.
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
import { startBanner } from '../sandbox/start-banner.js';
import { printableDocument, SANDBOX_ENVIRONMENT, sandboxDocument, sandboxSettings, withSandbox } from '../sandbox/sandbox-config.js';
import type { SandboxKind } from '../sandbox/sandbox-config.js';
import type { RunningSandbox } from '../sandbox/sandbox-run.js';
import { DEMO_ENVIRONMENT, demoTrafficOf } from '../sandbox/demo/demo-config.js';
import { startTraffic } from '../sandbox/demo/traffic.js';

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        config: { type: 'string' },
        'check-config': { type: 'boolean', default: false },
        sandbox: { type: 'boolean', default: false },
        api2: { type: 'boolean', default: false },
        demo: { type: 'boolean', default: false },
        'print-config': { type: 'boolean', default: false },
        workers: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    }));
  } catch (error) {
    return fail([`recipe-gateway: ${(error as Error).message} (recipe-gateway --help lists the options)`]);
  }
  if (values.help) return void process.stdout.write(usageText(SANDBOX_ENVIRONMENT, DEMO_ENVIRONMENT));
  if (values.version) return void process.stdout.write(`${VERSION_LINE}\n`);
  if ((values.api2 || values.demo) && values.config !== undefined) return fail(['--api2 and --demo run the sandbox\'s own config; to run FILE on the sandbox: --sandbox --config FILE']);
  if (values.api2 && values.demo) return fail(['--api2 or --demo, not both (the demo moves the mapped operations to api2 itself)']);
  // --sandbox, --api2, --demo: GATEWAY_CONFIG is not read; an explicit --config FILE runs on the sandbox (--sandbox).
  const sandboxAsked = values.sandbox || values.api2 || values.demo;
  const configPath = values.config ?? (sandboxAsked ? undefined : process.env['GATEWAY_CONFIG'] || undefined);
  const kind: SandboxKind = values.demo ? 'demo' : values.api2 ? 'api2' : 'legacy';
  let workers: GatewayConfig['workers'] | undefined;
  if (values.workers !== undefined) {
    const asked = values.workers === 'auto' ? 'auto' : Number(values.workers);
    if (asked !== 'auto' && !(Number.isInteger(asked) && asked >= 1 && asked <= 256)) return fail([`--workers: "auto" or a whole number from 1 to 256, got ${JSON.stringify(values.workers)}`]);
    workers = asked;
  }
  if (values['print-config']) {
    if (configPath) return fail(['--print-config prints the sandbox\'s own config (npm start -- --demo --print-config); with --config FILE, FILE is the config']);
    return void process.stdout.write(`${JSON.stringify(printableDocument(sandboxDocument(kind)), null, 2)}\n`);
  }
  const demoTraffic = values.demo ? demoTrafficOf(process.env) : undefined;
  if (demoTraffic && !demoTraffic.ok) return fail(demoTraffic.errors);

  if (values['check-config']) {
    if (!configPath) return fail(['--check-config needs --config FILE or GATEWAY_CONFIG']);
    const result = await loadConfig(configPath, { env: process.env, workers });
    if (!result.ok) return fail(result.errors);
    const problems = await startProblems(result.config);
    if (problems.length > 0) return fail(problems.map((problem) => `${configPath}: ${problem}`));
    for (const warning of await sandboxReach(result.config)) console.error(`${configPath}: warning: ${warning}`);
    console.log(`${configPath}: valid`);
    return;
  }

  const closers: Array<() => Promise<void>> = [];
  // Loaded only in a sandbox run: a gateway with a config file alone never carries the sandbox.
  let sandbox: RunningSandbox | undefined;
  let seenDocument: unknown;
  if (!configPath || values.sandbox) {
    const started = await (await import('../sandbox/sandbox-run.js')).startSandbox(process.env);
    if (!started.ok) return fail(started.errors);
    sandbox = started.sandbox;
    closers.push(() => started.sandbox.close());
  }
  const backends = sandbox?.backends;
  // What the start applies over the file (every reload applies the same: src/node/start-config.ts),
  // with --sandbox the sandbox's upstreams and settings too.
  const overrides: Overrides = {
    env: process.env,
    workers,
    prepare: backends
      ? (document) => {
          seenDocument = document;
          return withSandbox(document, backends);
        }
      : undefined,
  };
  let config: GatewayConfig;
  if (configPath) {
    const result = await loadConfig(configPath, overrides);
    // Started sandbox backends must not keep the process up.
    if (!result.ok) return sandbox ? exitNow(result.errors) : fail(result.errors);
    config = result.config;
  } else {
    seenDocument = sandboxDocument(kind);
    const result = parseConfig(withSandbox(seenDocument, backends!));
    if (!result.ok) return exitNow(result.errors);
    const applied = applyOverrides(result.config, overrides);
    if (!applied.ok) return exitNow(applied.errors);
    config = applied.config;
  }
  const sandboxNote = sandbox && backends ? { running: sandbox, settings: sandboxSettings(backends, seenDocument), routes: routesNote(kind, configPath, config) } : undefined;
  const problems = await startProblems(config);
  if (problems.length > 0) return exitNow([problems.join('; ')]);
  const workerTotal = workerCount(config.workers);
  let gateway: Awaited<ReturnType<typeof startGateway>> | Awaited<ReturnType<typeof startCluster>>;
  try {
    gateway = workerTotal > 1 ? await startCluster(config, workerTotal) : await startGateway(config, sandbox ? { extraAdmin: sandbox.admin } : {});
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
  let demo: { rate: number; total: number } | undefined;
  if (demoTraffic?.ok) {
    demo = { rate: demoTraffic.rate, total: demoTraffic.total };
    const traffic = startTraffic({ origin: `http://127.0.0.1:${new URL(gateway.httpOrigin).port}`, ...demo });
    closers.unshift(() => traffic.stop());
  }
  out.write(startBanner({ ...gateway, config, sandbox: sandboxNote, demo }));
}

/** What a plan names that matches no client, and the percentage steps the sandbox's clients cannot reach (a plan tried on the sandbox would wait there for ever). */
async function sandboxReach(config: GatewayConfig): Promise<string[]> {
  if (!Object.values(config.routes).some((route) => route.rollout)) return [];
  const [{ sandboxClients }, { unknownClients, unreachedSteps }] = await Promise.all([import('../sandbox/dataset/dataset.js'), import('../migration/rollout/reach.js')]);
  return [...unknownClients(config), ...unreachedSteps(config, sandboxClients(), 'sandbox')];
}

/** What the routes do in a sandbox run, for the banner. */
function routesNote(kind: SandboxKind, configPath: string | undefined, config: GatewayConfig): string {
  const plans = Object.values(config.routes).filter((route) => route.rollout).length;
  if (configPath) return `as ${configPath} says${plans > 0 ? ` (${plans} rollout plans)` : ''}`;
  if (kind === 'demo') return `${plans} operations with a rollout plan (shadow, 20, 50, 100 % for reads; writes follow their reads): watch the console`;
  if (kind === 'api2') return `${Object.keys(config.routes).length} mapped operations answered through api2 (--api2)`;
  return 'every operation on legacy (npm start -- --api2 routes the mapped ones to api2; npm start -- --demo moves them by rollout plans under traffic)';
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

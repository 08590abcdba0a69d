/** What `recipe-gateway --help` prints: the options, the environment it reads, and where the rest is. */
import { GATEWAY_NAME, GATEWAY_VERSION } from '../gateway/product.js';
import { ENVIRONMENT_OVERRIDES } from './start-config.js';

export const VERSION_LINE = `${GATEWAY_NAME} ${GATEWAY_VERSION}`;

/** `sandboxEnvironment` and `demoEnvironment`: the sandbox runs' and the demo's variables (src/sandbox/), handed in by main.ts so this stays off the sandbox. */
export function usageText(sandboxEnvironment: ReadonlyArray<readonly [name: string, what: string]> = [], demoEnvironment: ReadonlyArray<readonly [name: string, what: string]> = []): string {
  const env = ENVIRONMENT_OVERRIDES.map(([name, key]) => `  ${name.padEnd(22)}sets ${key}, at start and at every reload`);
  return [
    `${VERSION_LINE}: a migration gateway in front of the legacy Recipe and Grocery interface`,
    '',
    'Usage:',
    '  recipe-gateway                            sandbox: embedded legacy and api2 backends, gateway on :8080',
    '  recipe-gateway --api2                     sandbox, the mapped operations answered through api2',
    '  recipe-gateway --demo                     sandbox with rollout plans, traffic from its clients, faults',
    '                                            on demand from the console (/admin on the admin listener)',
    '  recipe-gateway --sandbox --config FILE    FILE on the sandbox backends (its upstreams, CA and settings)',
    '  recipe-gateway --demo --print-config      print the demo\'s config (a starting point for a real one)',
    '  recipe-gateway --config FILE              real backends from FILE (JSON, or YAML as .yaml/.yml)',
    '  recipe-gateway --config FILE --check-config',
    '                                            read FILE and every file it names (certificates, keys,',
    '                                            CA bundles, token files), report every error, exit 0 or 1',
    '',
    'Options:',
    '  --config FILE        the config file (else GATEWAY_CONFIG)',
    '  --check-config       validate and exit',
    '  --workers N|auto     node:cluster workers (overrides `workers`)',
    '  --sandbox            sandbox mode even when GATEWAY_CONFIG is set; with --config FILE, FILE on the sandbox',
    '  --api2               sandbox mode, mapped operations through api2',
    '  --demo               sandbox mode with rollout plans and bounded loopback traffic',
    '  --print-config       print the sandbox\'s config (with --api2 or --demo, theirs) and exit',
    '  --help, -h           this text',
    '  --version, -v        the version',
    '',
    'Environment:',
    `  ${'GATEWAY_CONFIG'.padEnd(22)}the config file when --config is not given`,
    ...env,
    ...sandboxEnvironment.map(([name, what]) => `  ${name.padEnd(22)}sandbox runs: ${what}`),
    ...demoEnvironment.map(([name, what]) => `  ${name.padEnd(22)}--demo: ${what}`),
    '',
    'SIGHUP or a change of the config file reloads it; SIGTERM and SIGINT drain and stop.',
    'The usage log goes to stdout unless observability.log says otherwise. Keys: docs/configuration.md.',
    '',
  ].join('\n');
}

#!/usr/bin/env node
/**
 * `npm run client-hash -- (--config FILE | --hash-key-env VAR) [--label NAME] [api_key ...]`
 * (bin: `recipe-gateway-client-hash`): prints the usage log's client hash of each api_key, read
 * from the arguments or, when none is given, one per line from stdin (so keys stay out of shell
 * history). The api_key itself is never printed. Exit 0, or 2 for bad usage or config.
 */
import { parseArgs } from 'node:util';
import { loadConfigFile } from '../node/config-file.js';
import { nodeHmacSha256 } from '../request/hmac-node.js';
import { clientHashLines, GATEWAY_HASH_KEY, hashKeyFromEnv, hashKeyOfGateway, labelError } from '../report/client-hash.js';
import type { HashKeyChoice } from '../report/client-hash.js';
import { readLines } from '../report/read-lines.js';

const USAGE = `usage: npm run client-hash -- (--config FILE | --hash-key-env VAR) [--label NAME] [api_key ...]

Prints the usage log's client hash of each api_key (read one per line from stdin when none is
given), as the gateway writes it in "client"; never the api_key itself.

  --config FILE        the gateway config (JSON; default GATEWAY_CONFIG): the key is its
                       observability.hashKey, or ${GATEWAY_HASH_KEY} when set, as in npm start
  --hash-key-env VAR   take the key from the environment variable VAR instead
  --label NAME         print "hash": "NAME" lines to paste into observability.clientLabels

The hash key is never taken as an argument. To keep api keys out of shell history:
  printf '%s\\n' "$KEY" | npm run client-hash -- --config gateway.json --label mobile-app
`;

class UsageError extends Error {}

async function main(): Promise<number> {
  const { values, positionals } = options();
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.label !== undefined) {
    const error = labelError(values.label);
    if (error) throw new UsageError(error);
  }
  const choice = await hashKey(values.config, values['hash-key-env']);
  if (!choice.ok) throw new UsageError(choice.error);

  const apiKeys = positionals.length > 0 ? positionals : await keysFromStdin();
  if (apiKeys.length === 0) throw new UsageError(`no api_key given (as arguments or on stdin)\n${USAGE}`);
  const lines = clientHashLines(nodeHmacSha256, choice.hashKey, apiKeys, values.label);
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stderr.write(
    `${apiKeys.length} api key(s) hashed with ${choice.source}` +
      (values.label === undefined ? '\n' : '; paste the lines into observability.clientLabels (a change of observability takes a restart)\n'),
  );
  return 0;
}

function options() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        config: { type: 'string' },
        'hash-key-env': { type: 'string' },
        label: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // An unknown option may be an api_key that begins with "-": not repeated.
    const unknown = (error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
    const message = unknown ? 'unknown option (not repeated here: it may be an api_key; give api keys that begin with - after --)' : String((error as Error).message);
    throw new UsageError(`${message}\n${USAGE}`);
  }
}

async function hashKey(configOption: string | undefined, envName: string | undefined): Promise<HashKeyChoice> {
  if (envName !== undefined) {
    if (configOption !== undefined) throw new UsageError(`give either --config or --hash-key-env, not both\n${USAGE}`);
    return hashKeyFromEnv(envName, process.env);
  }
  const configPath = configOption ?? (process.env['GATEWAY_CONFIG'] || undefined);
  if (configPath === undefined) throw new UsageError(`--config FILE (or GATEWAY_CONFIG) or --hash-key-env VAR is needed\n${USAGE}`);
  // Loaded and validated as npm start loads it: a config the gateway would refuse is refused here.
  const result = await loadConfigFile(configPath);
  if (!result.ok) throw new UsageError(result.errors.join('\n'));
  return hashKeyOfGateway(configPath, result.config, process.env);
}

async function keysFromStdin(): Promise<string[]> {
  if (process.stdin.isTTY) process.stderr.write('reading api keys from stdin, one per line (end with Ctrl-D)\n');
  const keys: string[] = [];
  const outcome = await readLines('-', (line) => keys.push(line));
  if (outcome.error !== undefined) throw new UsageError(`stdin: ${outcome.error}`);
  return keys;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof UsageError ? error.message : `client-hash failed: ${error instanceof Error ? error.message : String(error)}`}\n`);
    process.exitCode = 2;
  },
);

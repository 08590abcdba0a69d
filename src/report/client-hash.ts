/**
 * What `npm run client-hash` computes (the command itself is src/cli/client-hash.ts): the usage log's
 * `client` hash of each api_key, exactly as a gateway with the same `observability.hashKey` writes
 * it, and with a label the lines to paste into `observability.clientLabels`. The api_key itself is
 * never part of any output.
 *
 * The key is chosen as `npm start` chooses it: `GATEWAY_HASH_KEY` when set overrides the file's
 * `observability.hashKey`; without either, the gateway draws a random key at every start, so there
 * is no hash to compute.
 */
import { ObservabilityConfigSchema } from '../config/observability.js';
import type { GatewayConfig } from '../config/schema.js';
import type { HmacSha256 } from '../request/hmac.js';
import { hashClient } from '../request/identity.js';

/** The environment variable that overrides `observability.hashKey` in `npm start` and the edge worker. */
export const GATEWAY_HASH_KEY = 'GATEWAY_HASH_KEY';

export type Environment = Readonly<Record<string, string | undefined>>;

export type HashKeyChoice =
  | { readonly ok: true; readonly hashKey: string; /** Where the key came from, for a note on stderr. */ readonly source: string }
  | { readonly ok: false; readonly error: string };

/** The key a gateway started with this config (and this environment) hashes with. */
export function hashKeyOfGateway(configPath: string, config: GatewayConfig, env: Environment): HashKeyChoice {
  if (env[GATEWAY_HASH_KEY]) return hashKeyFromEnv(GATEWAY_HASH_KEY, env, `${GATEWAY_HASH_KEY} (it overrides observability.hashKey of ${configPath}, as in npm start)`);
  const hashKey = config.observability.hashKey;
  if (hashKey !== undefined) return { ok: true, hashKey, source: `observability.hashKey of ${configPath}` };
  return {
    ok: false,
    error:
      `${configPath}: has no observability.hashKey (and ${GATEWAY_HASH_KEY} is not set). Without a configured key the gateway ` +
      'draws a random key at every start, so the client hashes in its usage log change at each restart, cannot be computed ' +
      'here and cannot match clientLabels. Set observability.hashKey (at least 16 characters, a random secret) or ' +
      `${GATEWAY_HASH_KEY}, restart the gateway, then run this again.`,
  };
}

/** The key held by the environment variable `name`, checked by the rule of `observability.hashKey`. */
export function hashKeyFromEnv(name: string, env: Environment, source = `environment variable ${name}`): HashKeyChoice {
  const hashKey = env[name];
  if (!hashKey) return { ok: false, error: `${name}: is not set in the environment (or empty)` };
  const checked = ObservabilityConfigSchema.shape.hashKey.safeParse(hashKey);
  if (!checked.success) return { ok: false, error: `${name}: ${checked.error.issues.map((issue) => issue.message).join('; ')}` };
  return { ok: true, hashKey, source };
}

/** Why `label` cannot be a `clientLabels` value, by the config's own rule; undefined when it can. */
export function labelError(label: string): string | undefined {
  const checked = ObservabilityConfigSchema.shape.clientLabels.safeParse({ '0000000000000000': label });
  return checked.success ? undefined : `--label: ${checked.error.issues.map((issue) => issue.message).join('; ')}`;
}

/**
 * One line per api_key with its hash, in the order given; with a label, one `"hash": "label"` line
 * per distinct hash, separated by commas, ready to paste between the braces of `clientLabels`.
 */
export function clientHashLines(hmac: HmacSha256, hashKey: string, apiKeys: readonly string[], label?: string): string[] {
  const hashes = apiKeys.map((apiKey) => hashClient(hmac, hashKey, apiKey));
  if (label === undefined) return hashes;
  const distinct = [...new Set(hashes)];
  return distinct.map((hash, index) => `  ${JSON.stringify(hash)}: ${JSON.stringify(label)}${index < distinct.length - 1 ? ',' : ''}`);
}

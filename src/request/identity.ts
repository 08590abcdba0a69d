/**
 * Who sent a request, as the usage log may say it: the api_key and the HTTP Basic user name as
 * keyed hashes (HMAC-SHA256 with `observability.hashKey`, first 8 bytes in hex), never the
 * values. The same key gives the same hash across restarts and gateways, so logs can be joined
 * (docs/usage-log-and-report.md). The HMAC is the runtime's (src/request/hmac.ts).
 */
import type { Credentials } from './credentials.js';
import { keyBytes, toHex } from './hmac.js';
import type { HmacSha256 } from './hmac.js';
import { remembered } from '../hot-path.js';

const REMEMBERED = 10_000;

export interface ClientIdentity {
  readonly hash: string;
  readonly label: string | undefined;
}

export interface Identifier {
  /** Hash (and label) of a request's api key (its first: src/request/credentials.ts); undefined without one. */
  client(apiKey: string | undefined): ClientIdentity | undefined;
  /** Hash of a request's HTTP Basic user name; undefined without one. */
  user(user: Credentials['user']): string | undefined;
}

export function hashClient(hmac: HmacSha256, hashKey: string, apiKey: string): string {
  return toHex(hmac(keyBytes(hashKey))(`api_key\n${apiKey}`), 8);
}

export function createIdentifier(hmac: HmacSha256, hashKey: string, labels: Readonly<Record<string, string>> = {}): Identifier {
  const mac = hmac(keyBytes(hashKey));
  const clientOf = remembered(REMEMBERED, (apiKey: string): ClientIdentity => {
    const hash = toHex(mac(`api_key\n${apiKey}`), 8);
    return { hash, label: labels[hash] };
  });
  const userOf = remembered(REMEMBERED, (user: string) => toHex(mac(`user\n${user}`), 8));
  return {
    client: (apiKey) => (apiKey === undefined ? undefined : clientOf(apiKey)),
    user: (basic) => (basic ? userOf(basic.user) : undefined),
  };
}

/** A secret shorter than this is not looked for in what a log keeps (it would match by chance). */
const SHORTEST_SECRET_LOOKED_FOR = 3;

/**
 * The request's secrets, lower-cased, that a logged text must not hold: each `api_key` value of the
 * query (a client may send several), and the Basic user name and password; the shortest left out.
 */
export function secretsLookedFor(credentials: Pick<Credentials, 'apiKeys' | 'user'>): string[] {
  const secrets = credentials.apiKeys.map((key) => key.toLowerCase());
  const basic = credentials.user;
  if (basic) secrets.push(basic.user.toLowerCase(), basic.password.toLowerCase());
  return secrets.filter((secret) => secret.length >= SHORTEST_SECRET_LOOKED_FOR);
}

/**
 * A path template with every segment that holds one of the request's secrets (a client that put
 * its key in a path) replaced by `{secret}` (secretsLookedFor).
 */
export function scrubTemplate(template: string, credentials: Pick<Credentials, 'apiKeys' | 'user'>): string {
  const usable = secretsLookedFor(credentials);
  if (usable.length === 0) return template;
  return template
    .split('/')
    .map((segment) => (usable.some((secret) => segment.includes(secret)) ? '{secret}' : segment))
    .join('/');
}

/** The configured key, or a random one for this process (hashes then change at every restart). */
export function identifierFromConfig(
  observability: { readonly hashKey?: string | undefined; readonly clientLabels: Readonly<Record<string, string>> },
  hmac: HmacSha256,
): Identifier {
  return createIdentifier(hmac, observability.hashKey ?? randomKey(), observability.clientLabels);
}

function randomKey(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}

/**
 * Who sent a request, as the usage log may say it: the api_key and the HTTP Basic user name as
 * keyed hashes (HMAC-SHA256 with `observability.hashKey`, first 8 bytes in hex), never the
 * values. The same key gives the same hash across restarts and gateways, so logs can be joined;
 * without the key a hash cannot be reversed or checked against a guessed api_key.
 *
 * Hashes are cached per raw value (bounded), so a busy client costs one map lookup per request.
 */
import type { Credentials } from './credentials.js';
import { hmacSha256, toHex } from './hmac-sha256.js';

const CACHE_LIMIT = 10_000;

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

export function hashClient(hashKey: string, apiKey: string): string {
  return toHex(hmacSha256(hashKey)(`api_key\n${apiKey}`), 8);
}

export function createIdentifier(hashKey: string, labels: Readonly<Record<string, string>> = {}): Identifier {
  const mac = hmacSha256(hashKey);
  const clients = new Map<string, ClientIdentity>();
  const users = new Map<string, string>();

  const client = (apiKey: string | undefined): ClientIdentity | undefined => {
    if (apiKey === undefined) return undefined;
    let found = clients.get(apiKey);
    if (!found) {
      const hash = toHex(mac(`api_key\n${apiKey}`), 8);
      found = { hash, label: labels[hash] };
      if (clients.size >= CACHE_LIMIT) clients.clear();
      clients.set(apiKey, found);
    }
    return found;
  };

  const user = (basic: Credentials['user']): string | undefined => {
    if (!basic) return undefined;
    let hash = users.get(basic.user);
    if (hash === undefined) {
      hash = toHex(mac(`user\n${basic.user}`), 8);
      if (users.size >= CACHE_LIMIT) users.clear();
      users.set(basic.user, hash);
    }
    return hash;
  };

  return { client, user };
}

/**
 * A path template with every segment that holds one of the request's secrets (a client that put
 * its key in a path) replaced by `{secret}`: each `api_key` value of the query (a client may send
 * several), and the Basic user name and password.
 */
export function scrubTemplate(template: string, credentials: Pick<Credentials, 'apiKeys' | 'user'>): string {
  const secrets = credentials.apiKeys.map((key) => key.toLowerCase());
  const basic = credentials.user;
  if (basic) secrets.push(basic.user.toLowerCase(), basic.password.toLowerCase());
  const usable = secrets.filter((secret) => secret.length >= 3);
  if (usable.length === 0) return template;
  return template
    .split('/')
    .map((segment) => (usable.some((secret) => segment.includes(secret)) ? '{secret}' : segment))
    .join('/');
}

/** The configured key, or a random one for this process (hashes then change at every restart). */
export function identifierFromConfig(observability: { readonly hashKey?: string | undefined; readonly clientLabels: Readonly<Record<string, string>> }): Identifier {
  return createIdentifier(observability.hashKey ?? randomKey(), observability.clientLabels);
}

function randomKey(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}

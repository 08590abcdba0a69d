/**
 * Who sent a request, as the usage log may say it: the api_key and the HTTP Basic user name as
 * keyed hashes (HMAC-SHA256 with `observability.hashKey`, first 8 bytes in hex), never the
 * values. The same key gives the same hash across restarts and gateways, so logs can be joined;
 * without the key a hash cannot be reversed or checked against a guessed api_key.
 *
 * Hashes are cached per raw value (bounded), so a busy client costs one map lookup per request.
 */
import { parseBasic } from '../legacy/credentials.js';
import { decodeFormComponent, readPairs } from '../request/pairs.js';
import { hmacSha256, toHex } from './hmac-sha256.js';

const CACHE_LIMIT = 10_000;
const API_KEY = /(?:^|&)api_key=([^&]*)/i;

export interface ClientIdentity {
  readonly hash: string;
  readonly label: string | undefined;
}

export interface Identifier {
  /** Hash (and label) of the `api_key` in a raw query string; undefined without one. */
  client(query: string): ClientIdentity | undefined;
  /** Hash of the user name in an `Authorization: Basic` header; undefined without one. */
  user(authorization: string | undefined): string | undefined;
}

export function hashClient(hashKey: string, apiKey: string): string {
  return toHex(hmacSha256(hashKey)(`api_key\n${apiKey}`), 8);
}

export function createIdentifier(hashKey: string, labels: Readonly<Record<string, string>> = {}): Identifier {
  const mac = hmacSha256(hashKey);
  const clients = new Map<string, ClientIdentity>();
  const users = new Map<string, string | undefined>();

  const client = (query: string): ClientIdentity | undefined => {
    const apiKey = apiKeyOf(query);
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

  const user = (authorization: string | undefined): string | undefined => {
    if (!authorization) return undefined;
    if (users.has(authorization)) return users.get(authorization);
    const basic = parseBasic(authorization);
    const hash = basic ? toHex(mac(`user\n${basic.user}`), 8) : undefined;
    if (users.size >= CACHE_LIMIT) users.clear();
    users.set(authorization, hash);
    return hash;
  };

  return { client, user };
}

/** First `api_key` value of a raw query string, form-decoded; names match without regard to case. */
export function apiKeyOf(query: string): string | undefined {
  if (query === '') return undefined;
  const match = API_KEY.exec(query);
  if (match) return decodeFormComponent(match[1] ?? '');
  if (!/%5f/i.test(query)) return undefined;
  // A percent-encoded name (`api%5Fkey=`): rare, so the slow path.
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && decodeFormComponent(pair.slice(0, eq)).toLowerCase() === 'api_key') return decodeFormComponent(pair.slice(eq + 1));
  }
  return undefined;
}


/**
 * A path template with every segment that holds one of the request's secrets (a client that put
 * its key in a path) replaced by `{secret}`: each `api_key` value of the query (a client may send
 * several), and the Basic user name and password.
 */
export function scrubTemplate(template: string, query: string, authorization: string | undefined): string {
  const secrets = readPairs(query)
    .filter((pair) => pair.name === 'api_key')
    .map((pair) => pair.value.toLowerCase());
  const basic = parseBasic(authorization);
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

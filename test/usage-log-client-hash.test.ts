/**
 * The keyed hashes of the usage log: api_key is found in a query as the backend finds it, hashes
 * are per key, and they are byte-identical through either runtime's HMAC and to the hashes written
 * before the HMAC moved into the runtime bindings (logs are joined across restarts and gateways).
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createIdentifier, hashClient } from '../src/request/identity.js';
import { createSecretHasher } from '../src/cache/secret-hasher.js';
import { credentialsOf } from '../src/request/credentials.js';
import { readPairs } from '../src/request/pairs.js';
import { edgeRuntime } from '../src/edge/runtime.js';
import { nodeRuntime } from '../src/node/runtime.js';
import { basic } from './support/http.js';

const apiKeyOf = (query: string): string | undefined => credentialsOf(readPairs(query), undefined).apiKey;
const userOf = (authorization: string) => credentialsOf([], authorization).user;

const BINDINGS = [
  ['Node', nodeRuntime.hmacSha256],
  ['edge', edgeRuntime.hmacSha256],
] as const;

describe.each(BINDINGS)('client and user identity through the %s binding', (_name, hmac) => {
  it('finds api_key as the backend does: first value, any letter case, form-decoded', () => {
    expect(apiKeyOf('rid=1&api_key=abc&api_key=def')).toBe('abc');
    expect(apiKeyOf('API_Key=a%2Bb+c')).toBe('a+b c');
    expect(apiKeyOf('api%5Fkey=encoded')).toBe('encoded');
    expect(apiKeyOf('my_api_key=no')).toBeUndefined();
    expect(apiKeyOf('')).toBeUndefined();
  });

  it('hashes api keys and Basic user names with the key, and applies the label map', () => {
    const key = 'identity-test-key-0001';
    const clientHash = createHmac('sha256', key).update('api_key\nsecret-key').digest('hex').slice(0, 16);
    expect(hashClient(hmac, key, 'secret-key')).toBe(clientHash);
    const identifier = createIdentifier(hmac, key, { [clientHash]: 'partner' });
    expect(identifier.client(apiKeyOf('api_key=secret-key'))).toEqual({ hash: clientHash, label: 'partner' });
    expect(identifier.user(userOf(basic('alice', 'alice-pass')))).toBe(createHmac('sha256', key).update('user\nalice').digest('hex').slice(0, 16));
    expect(createIdentifier(hmac, 'another-key-000000001').client(apiKeyOf('api_key=secret-key'))?.hash).not.toBe(clientHash);
    expect(identifier.user(userOf('Bearer token'))).toBeUndefined();
  });

  it('gives the hashes gateways wrote before (pinned: the usage log and a shared cache tier join on them)', () => {
    // Written by the pure-TypeScript HMAC this binding replaced (commit 68e075a), for these keys.
    expect(hashClient(hmac, 'identity-test-key-0001', 'secret-key')).toBe('62900ef3722f1d1e');
    expect(createIdentifier(hmac, 'identity-test-key-0001').user(userOf(basic('alice', 'x')))).toBe('935971b8d5f79ebb');
    const shared = createSecretHasher(hmac, 10, 'fleet-shared-key-0001');
    expect(shared('api_key\nsandbox-free-key')).toBe('79f0c0958f2b66797c96d5e01340391d');
    expect(shared('authorization\nBasic YWxpY2U6YWxpY2UtcGFzcw==')).toBe('899c9db14754a69939fcb0ec13aa1dbb');
  });
});

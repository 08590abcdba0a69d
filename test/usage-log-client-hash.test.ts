/**
 * The keyed hashes of the usage log: the pure HMAC-SHA256 (runtime-agnostic core) agrees with
 * node:crypto, api_key is found in a query as the backend finds it, and hashes are per key.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256, sha256, toHex } from '../src/request/hmac-sha256.js';
import { createIdentifier, hashClient } from '../src/request/identity.js';
import { credentialsOf } from '../src/request/credentials.js';
import { readPairs } from '../src/request/pairs.js';

const apiKeyOf = (query: string): string | undefined => credentialsOf(readPairs(query), undefined).apiKey;
const userOf = (authorization: string) => credentialsOf([], authorization).user;
import { basic } from './support/http.js';

describe('HMAC-SHA256 in the core', () => {
  const messages = ['', 'abc', 'api_key\nsandbox-free-key', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), 'é€𝄞'.repeat(40), 'q'.repeat(1000)];

  it('hashes like node:crypto, across block boundaries and multi-byte text', () => {
    for (const message of messages) {
      expect(toHex(sha256(new TextEncoder().encode(message)))).toBe(createHash('sha256').update(message).digest('hex'));
    }
  });

  it('keys like node:crypto, short keys and keys longer than a block', () => {
    for (const key of ['k', 'a-16-char-secret', 'K'.repeat(64), 'L'.repeat(200)]) {
      const mac = hmacSha256(key);
      for (const message of messages) expect(toHex(mac(message))).toBe(createHmac('sha256', key).update(message).digest('hex'));
    }
  });
});

describe('client and user identity', () => {
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
    expect(hashClient(key, 'secret-key')).toBe(clientHash);
    const identifier = createIdentifier(key, { [clientHash]: 'partner' });
    expect(identifier.client(apiKeyOf('api_key=secret-key'))).toEqual({ hash: clientHash, label: 'partner' });
    expect(identifier.user(userOf(basic('alice', 'alice-pass')))).toBe(createHmac('sha256', key).update('user\nalice').digest('hex').slice(0, 16));
    expect(createIdentifier('another-key-000000001').client(apiKeyOf('api_key=secret-key'))?.hash).not.toBe(clientHash);
    expect(identifier.user(userOf('Bearer token'))).toBeUndefined();
  });
});

/** HMAC-SHA256 on Node: node:crypto (OpenSSL), synchronous. See hmac.ts; only Node code imports it (test/core-has-no-node-only-imports.test.ts keeps it out of the edge build). */
import { createHmac } from 'node:crypto';
import type { HmacSha256 } from './hmac.js';

export const nodeHmacSha256: HmacSha256 = (key) => (message) => createHmac('sha256', key).update(message).digest();

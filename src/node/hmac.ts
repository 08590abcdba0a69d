/** HMAC-SHA256 on Node: node:crypto (OpenSSL), synchronous. See src/request/hmac.ts. */
import { createHmac } from 'node:crypto';
import type { HmacSha256 } from '../request/hmac.js';

export const nodeHmacSha256: HmacSha256 = (key) => (message) => createHmac('sha256', key).update(message).digest();

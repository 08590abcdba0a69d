/**
 * The content coding an answer may have, from the client's `Accept-Encoding` (RFC 9110 12.5.3),
 * brought to the closed set the gateway keys and forwards: `gzip` or `identity`.
 *
 * DECISION: `gzip` whenever the client accepts it with a non-zero weight, by name or through `*`
 * (as the legacy backend compresses); otherwise `identity` (sent even when a client refuses it: a
 * 406 would break more clients than an unencoded answer). The upstream is then asked for exactly that coding, so
 * no client is ever served a coding it did not accept, from the cache or otherwise.
 */
import type { ContentCoding } from '../legacy/answer-terms.js';

export function negotiateEncoding(acceptEncoding: string | undefined): ContentCoding {
  if (!acceptEncoding) return 'identity';
  let gzip: number | undefined;
  let star: number | undefined;
  for (const item of acceptEncoding.split(',')) {
    const [token = '', ...params] = item.split(';');
    const coding = token.trim().toLowerCase();
    const weight = weightOf(params);
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, weight);
    else if (coding === '*') star = weight;
  }
  return (gzip ?? star ?? 0) > 0 ? 'gzip' : 'identity';
}

function weightOf(params: readonly string[]): number {
  for (const param of params) {
    const [name = '', value = ''] = param.split('=');
    if (name.trim().toLowerCase() !== 'q') continue;
    const q = Number(value.trim());
    return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
  }
  return 1;
}

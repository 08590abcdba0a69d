/**
 * The config's content hash: what two replicas compare to know they run the same config (a
 * per-process reload counter cannot). sha256 of the validated config in its canonical JSON (keys
 * sorted at every level), first 16 hex digits. The same file gives the same hash on every replica,
 * whatever key order or whitespace it was written with; the secrets in it cannot be read back
 * from a hash of the whole document.
 */
import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function configHash(config: unknown): string {
  return createHash('sha256').update(JSON.stringify(canonical(config))).digest('hex').slice(0, 16);
}

/**
 * What holds a client back, from one way it calls the gateway (a use): one list of kinds, read the
 * same way by the report (from the usage log) and the live counters (from request records).
 */
export type BlockerKind = 'legacy-mode' | 'malformed-form' | 'version-prefix' | 'plain-http' | 'uncatalogued';

/** What a kind means, as the report and the console say it. */
export const BLOCKER_TEXT: Readonly<Record<BlockerKind, string>> = {
  'plain-http': 'credentials over plain http',
  'malformed-form': 'malformed path forms',
  'version-prefix': 'version path prefix',
  uncatalogued: 'uncatalogued calls (only the legacy backend answers them)',
  'legacy-mode': 'served by the legacy backend',
};

/** The clients holding an operation back by one kind of blocker. */
export interface BlockerGroup {
  readonly kind: BlockerKind;
  readonly detail: string;
  readonly clients: number;
  readonly requests: number;
}

export interface UseFacts {
  readonly operation: string;
  readonly mode: string | undefined;
  readonly form: string | undefined;
  readonly versionPrefix: string | null | undefined;
  readonly insecure: boolean;
}

export function blockerKinds(use: UseFacts): BlockerKind[] {
  if (use.operation === 'uncatalogued') return ['uncatalogued'];
  const kinds: BlockerKind[] = [];
  if (use.mode === 'legacy') kinds.push('legacy-mode');
  if (use.form === 'malformed') kinds.push('malformed-form');
  if (use.versionPrefix !== undefined && use.versionPrefix !== null) kinds.push('version-prefix');
  if (use.insecure) kinds.push('plain-http');
  return kinds;
}

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

export function blockerKinds(use: UseFacts): readonly BlockerKind[] {
  return kindsOf(use.operation, use.mode, use.form, use.versionPrefix, use.insecure);
}

/**
 * Every list `blockerKinds` can answer, made once (a list per combination of the four kinds, in
 * their order), so that counting a request allocates none.
 */
const ORDER: readonly BlockerKind[] = ['legacy-mode', 'malformed-form', 'version-prefix', 'plain-http'];
const LISTS: ReadonlyArray<readonly BlockerKind[]> = Array.from({ length: 1 << ORDER.length }, (_, bits) => Object.freeze(ORDER.filter((_kind, i) => (bits & (1 << i)) !== 0)));
const UNCATALOGUED: readonly BlockerKind[] = Object.freeze(['uncatalogued']);

/** `blockerKinds` of the facts one by one (the live counters', for each request record). */
export function kindsOf(operation: string, mode: string | undefined, form: string | undefined, versionPrefix: string | null | undefined, insecure: boolean): readonly BlockerKind[] {
  if (operation === 'uncatalogued') return UNCATALOGUED;
  const bits = (mode === 'legacy' ? 1 : 0) | (form === 'malformed' ? 2 : 0) | (versionPrefix !== undefined && versionPrefix !== null ? 4 : 0) | (insecure ? 8 : 0);
  return LISTS[bits]!;
}

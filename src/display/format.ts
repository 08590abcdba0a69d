/**
 * Number and name formats shared by the report's terminal table and HTML page and by the live console.
 */
export function formatPercent(fraction: number | null): string {
  if (fraction === null) return '-';
  return `${(Math.round(fraction * 1000) / 10).toFixed(1)}%`;
}

export function formatMs(ms: number | null): string {
  return ms === null ? '-' : ms.toFixed(ms >= 100 ? 0 : ms >= 10 ? 1 : 2);
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `ios-app (1a2b3c4d5e6f7a8b)`, or the hash alone. */
export function clientName(client: { readonly client: string; readonly label: string | undefined }): string {
  return client.label ? `${client.label} (${client.client})` : client.client;
}

export function modeShares(modes: ReadonlyArray<{ readonly mode: string; readonly share: number }>): string {
  return modes.map((m) => `${m.mode} ${formatPercent(m.share)}`).join(', ');
}

/** An agreement rate rounded down (98.96% → `98.9%`), so a rate below a threshold never shows as the threshold. */
export function formatAgreementRate(fraction: number | null): string {
  if (fraction === null) return '-';
  return `${(Math.floor(fraction * 1000 + 1e-9) / 10).toFixed(1)}%`;
}

/** `97.0% of 100` (shadow agreement and comparisons), or `-` when nothing was compared. */
export function formatAgreement(shadow: { readonly agreement: number | null; readonly compared: number }): string {
  return shadow.agreement === null ? '-' : `${formatAgreementRate(shadow.agreement)} of ${formatCount(shadow.compared)}`;
}

/** `Results[].Title (3), ResultCount (1)`: the first `limit` paths with their counts. */
export function pathCounts(paths: ReadonlyArray<{ readonly path: string; readonly count: number }>, limit: number): string {
  return paths
    .slice(0, limit)
    .map((p) => `${p.path} (${formatCount(p.count)})`)
    .join(', ');
}

/** `recipes.search, grocery.list and 3 more`. */
export function operationList(operations: readonly string[], shown = 4): string {
  return operations.length <= shown ? operations.join(', ') : `${operations.slice(0, shown).join(', ')} and ${operations.length - shown} more`;
}

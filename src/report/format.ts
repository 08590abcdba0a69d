/**
 * Number formats shared by the terminal table and the HTML page.
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

/**
 * Node-only: the console's per-client history (src/admin/console-clients.ts) read from the
 * usage-log file this gateway writes, through the report's own file source and client sections:
 * the console's client page and the report agree by construction. Each page view reads the file
 * again (nothing per client stays in memory); a log rotated away is not read (the report reads it).
 */
import type { ClientHistory } from '../admin/console-clients.js';
import { clientSections } from '../report/client-sections.js';
import { filesSource } from '../report/sources/files.js';

/** The history of a usage log written to a file; undefined when it goes to stdout or stderr, or is off. */
export function usageLogHistory(log: { readonly enabled: boolean; readonly destination: string }): ClientHistory | undefined {
  if (!log.enabled || log.destination === 'stdout' || log.destination === 'stderr') return undefined;
  const source = filesSource([log.destination]);
  return {
    describe: `the usage log ${log.destination}`,
    async sections(plans) {
      return clientSections((await source.counts()).clients, plans);
    },
  };
}

/**
 * Node-only: the cluster messages that carry a write's page drops between the workers, through
 * the primary (cluster-tier.ts in a worker, page-drop-relay.ts in the primary); part of
 * src/node/cluster-messages.ts's unions.
 */

/** Primary to worker: another worker answered a write, drop every page, then say `gateway:pages-dropped`. Worker to primary: this worker answered a write, every other worker is to drop its pages. */
export interface DropPages {
  readonly type: 'gateway:drop-pages';
  readonly id: number;
}

/** Worker to primary: dropped, as asked. Primary to worker: every other worker dropped its pages for the write this worker asked about. */
export interface PagesDropped {
  readonly type: 'gateway:pages-dropped';
  readonly id: number;
}

export type PageDropMessage = DropPages | PagesDropped;

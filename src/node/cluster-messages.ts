/**
 * The messages between the cluster primary (src/node/cluster.ts) and its workers
 * (src/node/cluster-worker.ts), over node:cluster's IPC channel. The config travels here, not in
 * the environment, so its secrets never sit in /proc/<pid>/environ.
 */
import type { GatewayConfig } from '../config/schema.js';
import type { PageDropMessage } from './fleet/page-drop-messages.js';
import type { ReloadOutcome } from './generations.js';

export type ToWorker =
  | { readonly type: 'gateway:start'; readonly config: GatewayConfig }
  | { readonly type: 'gateway:reload'; readonly id: number; readonly config: GatewayConfig }
  /** Stop accepting, drain for up to `deadlineMs`, exit 0. A second one can only bring the deadline closer. */
  | { readonly type: 'gateway:drain'; readonly deadlineMs: number }
  | PageDropMessage;

export type FromWorker =
  /** The worker listens for messages now (what the primary sends before that is lost). */
  | { readonly type: 'gateway:listening' }
  | { readonly type: 'gateway:ready'; readonly httpOrigin: string; readonly httpsOrigin: string | undefined; readonly notes: readonly string[] }
  | { readonly type: 'gateway:failed'; readonly message: string }
  | { readonly type: 'gateway:reloaded'; readonly id: number; readonly outcome: ReloadOutcome }
  | { readonly type: 'gateway:reload-failed'; readonly id: number; readonly message: string }
  /** Sent once drained, just before the worker exits. */
  | { readonly type: 'gateway:drained'; readonly drained: boolean; readonly cut: number; readonly ms: number }
  | PageDropMessage;

export function isFromWorker(message: unknown): message is FromWorker {
  return typeof message === 'object' && message !== null && String((message as { type?: unknown }).type).startsWith('gateway:');
}

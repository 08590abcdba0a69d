/**
 * One record per request: what the gateway learned while answering it. Filled along the
 * middleware chain and handed to the `onRecord` sink when the answer is ready (the usage log).
 * It never holds a secret: no api_key, no Authorization, no raw query.
 */
import type { OperationId, PathFormKind } from '../catalogue/operations.js';

export type ServedBy = 'legacy' | 'gateway';

export interface RequestRecord {
  readonly startedAt: number;
  method: string;
  /** Operation id, or `uncatalogued`. */
  operation: OperationId | 'uncatalogued' | null;
  /** For uncatalogued requests: a path template such as `/recipe/{n}`. */
  pathTemplate?: string;
  form?: PathFormKind;
  versionPrefix?: string | null;
  absoluteForm?: boolean;
  scheme?: 'http' | 'https';
  insecure: boolean;
  servedBy?: ServedBy;
  status?: number;
  upstreamMs?: number;
  error?: string;
}

export type RecordSink = (record: Readonly<RequestRecord>) => void;

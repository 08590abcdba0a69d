/**
 * One record per request: what the gateway learned while answering it. Filled as the request
 * goes through the gateway and handed to the `onRecord` sink when the answer is ready (the usage
 * log and the metrics, src/observability/). It never holds a secret: no api_key, no password, no
 * Authorization, no raw query. Clients and users appear only as keyed hashes.
 *
 * Who fills what:
 * - requestContext: requestId, startedAt, method, status, latencyMs, bytesIn, bytesOut, client,
 *   clientLabel, user (and operation/form when a guard answered before dispatch);
 * - schemePolicy (a guard): scheme, insecure, absoluteForm;
 * - dispatch: operation, pathTemplate, form, versionPrefix, mode, upstream, upstreamMs, cache, error.
 */
import type { OperationId, PathFormKind } from '../catalogue/operations.js';
import { uncataloguedTemplate } from '../catalogue/route-table.js';
import type { RouteMatch } from '../catalogue/route-table.js';

/**
 * Which path answered the request: `legacy` (pass-through), `api2` (mapped), later `canary` and
 * `shadow`. Absent when the gateway answered by itself before choosing one (logged as `gateway`).
 */
export type Mode = 'legacy' | 'api2' | 'canary' | 'shadow' | 'gateway';
/** @deprecated Same values as `Mode`; set `record.mode`. */
export type ServedBy = Mode;

export type CacheStatus = 'HIT' | 'MISS' | 'STALE' | 'BYPASS';

export interface RequestRecord {
  /** From `X-Request-Id` when acceptable, else generated; echoed to the client when the usage log is on. */
  requestId: string;
  /** Epoch milliseconds when the request reached the gateway. */
  readonly startedAt: number;
  method: string;
  /** Operation id, `uncatalogued`, or null when the target was refused before routing. */
  operation: OperationId | 'uncatalogued' | null;
  /** For uncatalogued requests: a path template such as `/recipe/{n}`. */
  pathTemplate?: string;
  form?: PathFormKind;
  versionPrefix?: string | null;
  absoluteForm?: boolean;
  scheme?: 'http' | 'https';
  /** Credentials (api_key or Authorization) sent over plain http. */
  insecure: boolean;
  /** Which path answered it (see `Mode`). */
  mode?: Mode;
  /** @deprecated Read as `mode` when `mode` is absent; new code sets `mode`. */
  servedBy?: ServedBy;
  /** The route's configured mode (legacy, api2, canary, shadow); `mode` says which side answered. */
  routeMode?: 'legacy' | 'api2' | 'canary' | 'shadow';
  /** The api2 answer failed and legacy answered instead. */
  fallback?: boolean;
  /** Name of the upstream contacted (`legacy`, `api2`); defaults to the mode in metrics. */
  upstream?: string;
  /** Response cache outcome, when a cache is in the path. */
  cache?: CacheStatus;
  status?: number;
  /** Time from arrival to the answer being ready, in ms (0.01 ms resolution). */
  latencyMs?: number;
  upstreamMs?: number;
  /** Request body size (Content-Length, or the bytes read). */
  bytesIn?: number;
  /** Response body size. */
  bytesOut?: number;
  /** Keyed hash of the api_key (16 hex digits). */
  client?: string;
  /** Label of that hash from `observability.clientLabels`. */
  clientLabel?: string;
  /** Keyed hash of the HTTP Basic user name (16 hex digits). */
  user?: string;
  /** Short reason code (the `X-Gateway-Error` value, or an internal reason). */
  error?: string;
}

export type RecordSink = (record: Readonly<RequestRecord>) => void;

/** Notes which operation a request is, in which form, or the path template of an uncatalogued one. */
export function noteOperation(record: RequestRecord, match: RouteMatch | null, path: string): void {
  if (match) {
    record.operation = match.operation.id;
    record.form = match.form.kind;
    record.versionPrefix = match.versionPrefix;
  } else {
    record.operation = 'uncatalogued';
    record.pathTemplate = uncataloguedTemplate(path);
  }
}

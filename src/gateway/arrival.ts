/**
 * What the gateway knows of a request as it arrives, read once by the request context
 * (src/pipeline/request-context.ts) before any stage runs: the guards decide over it, dispatch
 * makes it canonical, and the request record is written from it and the outcome
 * (src/gateway/request-record.ts). Never changed once built.
 */
import type { RouteMatch } from '../catalogue/route-table.js';
import type { ClientView } from '../http/client-view.js';
import type { RouteMode } from '../config/schema.js';
import type { TraceContext } from '../observability/trace-context.js';

export interface Arrival {
  /** From `X-Request-Id` when acceptable, else generated. */
  readonly requestId: string;
  /** From `traceparent`/`tracestate` when valid, else a new trace (src/observability/trace-context.ts). */
  readonly trace: TraceContext;
  /** Epoch milliseconds at arrival. */
  readonly startedAt: number;
  /** `performance.now()` at arrival. */
  readonly startedPerf: number;
  readonly method: string;
  /** End-to-end request headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The client reads JSON, else XML (the legacy rule over Accept and Content-Type: src/legacy/render.ts). */
  readonly json: boolean;
  /** False when the target was refused before routing (then `path` is empty). */
  readonly routed: boolean;
  /** The normalised path, as routed. */
  readonly path: string;
  /** The raw query string, without `?`. */
  readonly query: string;
  /** The catalogue operation the request names; null when uncatalogued or unrouted. */
  readonly match: RouteMatch | null;
  /** The configured mode of that operation's route (legacy, api2, canary, shadow). */
  readonly routeMode: RouteMode | undefined;
  /** The client's scheme, address chain and host. */
  readonly client: ClientView;
  /** The client uses the gateway as its HTTP proxy (absolute-form target). */
  readonly absoluteForm: boolean;
  /** Credentials (an api_key or Authorization) sent over plain http. */
  readonly insecure: boolean;
}

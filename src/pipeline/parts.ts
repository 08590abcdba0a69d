/**
 * What the answering stages share for one config (the config, the upstream clients, the runtime
 * bindings, the api2 mapping context, the page cache and the shadow comparator), and what they
 * return (an outcome).
 */
import type { Answer } from '../http/answer.js';
import { gatewayError } from '../http/gateway-error.js';
import type { GatewayErrorCode } from '../http/gateway-error.js';
import type { RecordedOutcome } from '../gateway/request-record.js';
import type { FieldError } from '../legacy/field-error.js';
import type { MappingContext } from '../../mappings/types.js';
import type { SearchCache } from '../cache/search-cache.js';
import type { GatewayConfig } from '../config/schema.js';
import type { RuntimeBindings } from '../gateway/env.js';
import type { ShadowComparator } from '../traffic/shadow.js';
import type { RouteLookup } from '../migration/rollout/route-in-force.js';
import type { Upstreams } from '../upstream/types.js';
import type { ClientIdentity } from '../request/identity.js';

export interface PipelineParts {
  readonly config: GatewayConfig;
  readonly upstreams: Upstreams;
  readonly runtime: RuntimeBindings;
  readonly mappingContext: MappingContext;
  readonly searchCache: SearchCache | null;
  readonly shadow: ShadowComparator | null;
  /** Each route's mode, canary percent and fallback in force: the config's, or its rollout's step. */
  readonly route: RouteLookup;
  /** The api2 circuit breaker is open now (false without one). */
  readonly api2Open: () => boolean;
  /** Who a request's api key is (hash and label, as the usage log writes them): a plan's cohorts name clients so. */
  readonly clientOf: (apiKey: string | undefined) => ClientIdentity | undefined;
}

export type Side = 'legacy' | 'api2';

/**
 * What a stage answered, and what the request record learns from it (src/gateway/request-record.ts
 * writes the record from the arrival and this): the side that answered, the upstream time, the
 * reason of a refusal or failure, a fallback, the cache outcome.
 */
export interface Outcome extends RecordedOutcome {
  readonly answer: Answer;
}

/** What one upstream attempt produced. */
export interface Attempt extends Outcome {
  readonly side: Side;
  readonly upstreamMs: number;
  readonly error: string | undefined;
}

/** The gateway's own refusal, in the legacy error shape, recorded under its code. */
export function refused(status: number, code: GatewayErrorCode, message: string, json: boolean, fieldErrors?: readonly FieldError[]): Outcome {
  return { answer: gatewayError(status, code, message, json, fieldErrors), error: code };
}

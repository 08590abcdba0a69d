/**
 * What the answering stages share for one config: the config, the upstream clients, the runtime
 * bindings, the api2 mapping context, the page cache and the shadow comparator.
 */
import type { Answer } from '../http/answer.js';
import type { MappingContext } from '../../mappings/types.js';
import type { SearchCache } from '../cache/search-cache.js';
import type { GatewayConfig } from '../config/schema.js';
import type { RuntimeBindings } from '../gateway/env.js';
import type { ShadowComparator } from '../traffic/shadow.js';
import type { UpstreamClient } from '../upstream/types.js';

export interface Upstreams {
  readonly legacy: UpstreamClient;
  /** Required when any route calls api2 (the config refuses otherwise). */
  readonly api2?: UpstreamClient;
}

export interface PipelineParts {
  readonly config: GatewayConfig;
  readonly upstreams: Upstreams;
  readonly runtime: RuntimeBindings;
  readonly mappingContext: MappingContext;
  readonly searchCache: SearchCache | null;
  readonly shadow: ShadowComparator | null;
}

export type Side = 'legacy' | 'api2';

/** What one upstream attempt produced, and what the request record should learn from it. */
export interface Attempt {
  readonly answer: Answer;
  readonly side: Side;
  readonly upstreamMs: number;
  readonly error: string | undefined;
  readonly fallback?: true;
}

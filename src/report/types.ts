/**
 * The migration report's data: what `--json` prints and what the table and the HTML page show.
 */

/** One request record read back from the usage log (src/observability/log-fields.ts). */
export interface LogRecord {
  /** Epoch ms. */
  readonly time: number;
  readonly method: string;
  readonly operation: string;
  readonly pathTemplate: string | undefined;
  readonly mode: string;
  readonly form: string | undefined;
  readonly versionPrefix: string | undefined;
  readonly scheme: string | undefined;
  readonly insecure: boolean;
  readonly client: string | undefined;
  readonly clientLabel: string | undefined;
  readonly status: number;
  readonly latencyMs: number | undefined;
  readonly cache: string | undefined;
}

export interface Thresholds {
  /** Requests in api2 mode needed before an operation can be judged ready. */
  readonly minApi2Requests: number;
  /** api2 may exceed the legacy error rate by this much (a fraction, 0.001 = 0.1 point). */
  readonly errorMargin: number;
  /** Error rate allowed in api2 mode when there is no legacy traffic to compare with. */
  readonly maxErrorRateWithoutBaseline: number;
  /** api2 p95 latency may be at most this many times the legacy p95. */
  readonly latencyFactor: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = {
  minApi2Requests: 100,
  errorMargin: 0,
  maxErrorRateWithoutBaseline: 0.01,
  latencyFactor: 2,
};

export interface ModeReport {
  readonly mode: string;
  readonly requests: number;
  /** Of the operation's requests. */
  readonly share: number;
  /** 5xx answers / requests. */
  readonly errorRate: number;
  readonly p50Ms: number | null;
  readonly p95Ms: number | null;
}

export interface Readiness {
  readonly verdict: 'ready' | 'not-ready';
  readonly reasons: readonly string[];
}

export interface CountShare {
  readonly requests: number;
  readonly share: number;
}

export interface OperationReport {
  readonly operation: string;
  readonly requests: number;
  /** Distinct client hashes. */
  readonly clients: number;
  /** By requests, most first. */
  readonly modes: readonly ModeReport[];
  /** 5xx answers / requests. */
  readonly errorRate: number;
  /** 4xx answers / requests. */
  readonly clientErrorRate: number;
  readonly p50Ms: number | null;
  readonly p95Ms: number | null;
  /** Requests per path form (`canonical`, `malformed`, `regular`). */
  readonly forms: Readonly<Record<string, number>>;
  readonly malformed: CountShare & { readonly clients: number };
  readonly versionPrefixed: CountShare;
  /** Requests over plain http. */
  readonly plainHttp: CountShare;
  /** Requests with credentials over plain http. */
  readonly insecure: CountShare & { readonly clients: number };
  readonly cache: {
    readonly hit: number;
    readonly miss: number;
    readonly stale: number;
    readonly bypass: number;
    /** (hit + stale) / (hit + stale + miss); null when nothing went through a cache. */
    readonly hitRate: number | null;
  };
  readonly readiness: Readiness;
}

export type BlockerKind = 'legacy-mode' | 'malformed-form' | 'version-prefix' | 'plain-http' | 'uncatalogued';

export interface Blocker {
  readonly kind: BlockerKind;
  /** Operation id, or `METHOD /template` for uncatalogued calls. */
  readonly operation: string;
  readonly detail: string;
  readonly requests: number;
}

export interface ClientUse {
  readonly operation: string;
  readonly method: string;
  readonly pathTemplate: string | undefined;
  readonly mode: string;
  readonly form: string | undefined;
  readonly versionPrefix: string | undefined;
  readonly scheme: string | undefined;
  readonly insecure: boolean;
  readonly requests: number;
}

export interface ClientReport {
  readonly client: string;
  readonly label: string | undefined;
  readonly requests: number;
  /** Requests served in legacy mode: the remaining legacy use. */
  readonly legacyRequests: number;
  readonly firstSeen: string;
  readonly lastSeen: string;
  /** What it still uses, by requests, most first. */
  readonly uses: readonly ClientUse[];
  /** What blocks its migration, by requests, most first. */
  readonly blockers: readonly Blocker[];
}

export interface TimelineBucket {
  /** ISO time of the bucket's start. */
  readonly start: string;
  readonly total: number;
  readonly modes: Readonly<Record<string, number>>;
}

export interface BrokenLine {
  readonly input: string;
  readonly line: number;
  readonly reason: string;
}

export interface UncataloguedReport {
  readonly method: string;
  readonly pathTemplate: string;
  readonly requests: number;
  readonly clients: number;
}

export interface Report {
  readonly generatedAt: string;
  readonly inputs: readonly string[];
  readonly summary: {
    readonly records: number;
    readonly brokenLines: number;
    /** JSON lines that are not request records (startup notes and the like). */
    readonly otherLines: number;
    readonly firstTime: string | null;
    readonly lastTime: string | null;
    readonly clients: number;
    /** Requests without an api_key. */
    readonly anonymousRequests: number;
    /** Requests refused before routing (bad target, foreign host). */
    readonly unrouted: number;
    readonly modes: Readonly<Record<string, number>>;
  };
  /** By requests, most first. */
  readonly operations: readonly OperationReport[];
  /** Catalogued operations with no request in the log. */
  readonly unseenOperations: readonly string[];
  readonly uncatalogued: readonly UncataloguedReport[];
  /** By remaining legacy use, most first. */
  readonly clients: readonly ClientReport[];
  readonly timeline: {
    readonly stepSeconds: number;
    /** Every mode seen, most requests first. */
    readonly modes: readonly string[];
    readonly buckets: readonly TimelineBucket[];
  };
  /** First 100 broken lines; `summary.brokenLines` has the count. */
  readonly brokenLines: readonly BrokenLine[];
  readonly thresholds: Thresholds;
}

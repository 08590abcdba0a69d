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
  /** The route's configured mode (`legacy`, `api2`, `canary`, `shadow`); `mode` is the side that answered. */
  readonly routeMode: string | undefined;
  /** api2 failed and legacy answered (`mode` is then `legacy`). */
  readonly fallback: boolean;
}

/** One shadow comparison read back from the usage log (`"msg":"shadow"`, src/traffic/shadow.ts `ShadowRecord`). */
export interface ShadowLine {
  /** Epoch ms. */
  readonly time: number;
  readonly operation: string;
  readonly outcome: 'equal' | 'differ' | 'skipped';
  readonly reason: string | undefined;
  /** Field paths blamed on the mapping. */
  readonly diffs: readonly string[];
  /** Field paths legacy itself varied on. */
  readonly noise: readonly string[];
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
  /** Shadow agreement (equal / compared) needed, a fraction. */
  readonly minAgreement: number;
  /** Shadow comparisons needed before the agreement is judged. */
  readonly minShadowComparisons: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = {
  minApi2Requests: 100,
  errorMargin: 0,
  maxErrorRateWithoutBaseline: 0.01,
  latencyFactor: 2,
  minAgreement: 0.99,
  minShadowComparisons: 50,
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

export interface PathCount {
  readonly path: string;
  readonly count: number;
}

/** Shadow comparisons of one operation (legacy answered; api2 compared in the background). */
export interface ShadowReport {
  /** equal + differing. */
  readonly compared: number;
  readonly equal: number;
  readonly differing: number;
  readonly skipped: number;
  /** equal / compared; null with no comparison. */
  readonly agreement: number | null;
  /** Field paths blamed on the mapping: in how many comparisons, most first (at most 10). */
  readonly topFields: readonly PathCount[];
  /** Field paths legacy itself varied on (noise, not blamed): in how many comparisons, most first (at most 10). */
  readonly noiseFields: readonly PathCount[];
  /** Why comparisons were skipped, most first (at most 10). */
  readonly skipReasons: ReadonlyArray<{ readonly reason: string; readonly count: number }>;
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
  /** Requests per configured route mode, for records that name it. */
  readonly routeModes: Readonly<Record<string, number>>;
  /** Requests where api2 failed and legacy answered. */
  readonly fallbacks: CountShare;
  readonly shadow: ShadowReport;
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

/** One way a client calls the gateway (the record fields that tell uses apart), and how often. */
export type ClientUse = Pick<LogRecord, 'operation' | 'method' | 'pathTemplate' | 'mode' | 'form' | 'versionPrefix' | 'scheme' | 'insecure'> & {
  readonly requests: number;
};

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
    /** JSON lines that are neither request records nor shadow comparisons (startup notes and the like). */
    readonly otherLines: number;
    /** Shadow comparison lines (compared and skipped). */
    readonly shadowLines: number;
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
  /** Catalogued operations with no request in the log (an operation seen only in shadow lines is listed too). */
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

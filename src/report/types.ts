/**
 * The migration report's data: what `--json` prints and what the table and the HTML page show.
 */
import type { StepSection } from './step-sections.js';
import type { BlockerGroup, BlockerKind } from '../migration/blockers.js';
import type { Evidence } from '../migration/readiness.js';
import type { Judgement, OperationState } from '../migration/judgement/types.js';
import type { RolloutReport } from './rollout-lines.js';
import type { ClientStanding, PlansByOperation } from '../migration/rollout/client-standing.js';

/** One request record read back from the usage log (src/observability/log-fields.ts). */
export interface LogRecord {
  /** Epoch ms. */
  readonly time: number;
  /** The content hash of the config in force when it was answered. */
  readonly config?: string | undefined;
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
  /** The route's mode in force (`legacy`, `api2`, `canary`, `shadow`: a rollout's step, else the configured mode); `mode` is the side that answered. */
  readonly routeMode: string | undefined;
  /** On a rolled-out route, when its step in force began (epoch ms): the step the line's evidence is of. */
  readonly stepSince?: number | undefined;
  /** api2 failed and legacy answered (`mode` is then `legacy`). */
  readonly fallback: boolean;
  /** What made the answer JSON: `accept` or `content-type` (alone); absent: XML. */
  readonly jsonBy?: string | undefined;
  /** The deprecation signal the answer carried (`deprecation`, `sunset`, `deprecation+sunset`). */
  readonly deprecation?: string | undefined;
  /** The client program's family (its User-Agent's product name: src/http/client-program.ts). */
  readonly clientProgram?: string | undefined;
  /** The operation's declared parameters as the URL gave them (src/request/logged-params.ts); absent from older lines. */
  readonly params?: string | undefined;
}

/** One shadow comparison read back from the usage log (`"msg":"shadow"`, src/traffic/shadow.ts `ShadowRecord`). */
export interface ShadowLine {
  /** Epoch ms. */
  readonly time: number;
  /** The content hash of the config in force, and the route's mode in force, when the line says. */
  readonly config?: string | undefined;
  readonly routeMode?: string | undefined;
  readonly stepSince?: number | undefined;
  readonly operation: string;
  readonly outcome: 'equal' | 'differ' | 'race' | 'unavailable' | 'skipped';
  readonly reason: string | undefined;
  /** Field paths blamed on the mapping. */
  readonly diffs: readonly string[];
  /** Field paths legacy itself varied on. */
  readonly noise: readonly string[];
  /** The line's own id (its row key), and the values of its differing paths. */
  readonly id?: string | undefined;
  readonly examples?: readonly PathExample[];
}

/** One differing path's values in one comparison, as shown (cut, private fields redacted: src/traffic/diff-examples.ts). */
export interface PathExample {
  readonly path: string;
  readonly legacy: string;
  readonly api2: string;
}

/** How the report is judged. */
export interface ReportOptions {
  /** Judge the evidence of this config version (a `config` hash of the log) instead of the latest request line's. */
  readonly configVersion?: string | undefined;
  /** The config's routes (`--config`): the client sections then say where the rollout plans put each client. */
  readonly plans?: PlansByOperation | undefined;
  /**
   * The live counters' bucket of the config (`--config`: rollout.evaluationMs capped at 5 s): a
   * rolled-out route's step is judged on its lines from its first whole bucket on, as the runner does.
   */
  readonly stepBucketMs?: number | undefined;
  /** `--since` (epoch ms): the lines written before it are left out, but rollout decisions. */
  readonly since?: number | undefined;
}

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

/** The one judgement's state of an operation (src/migration/judgement/): `canMove` false for a legacy-only operation. */
export type Readiness = Judgement;

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
  /** Races: comparisons a write of their scope overlapped, left out of compared (docs/rollout.md "Races"). */
  readonly raced: number;
  /** api2 answered 5xx, timed out or refused: left out of compared, against api2's availability. */
  readonly unavailable: number;
  /** equal / compared; null with no comparison. */
  readonly agreement: number | null;
  /** Field paths blamed on the mapping: in how many comparisons, most first (at most 10). */
  readonly topFields: readonly PathCount[];
  /** Field paths legacy itself varied on (noise, not blamed): in how many comparisons, most first (at most 10). */
  readonly noiseFields: readonly PathCount[];
  /** Recent example pairs of the differing paths (the latest comparisons that had some; at most 3 per path), newest first. */
  readonly examples: ReadonlyArray<PathExample & { readonly time: string }>;
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

export type { BlockerKind } from '../migration/blockers.js';

/** One kind of blocker of one client, over every operation it holds back. */
export interface Blocker {
  readonly kind: BlockerKind;
  readonly detail: string;
  /** Operation ids, or `METHOD /template` for uncatalogued calls; most requests first. */
  readonly operations: readonly string[];
  readonly requests: number;
}

/** One operation: its judgement, the evidence it was judged on, the clients holding it back. */
export interface OperationReadiness {
  readonly operation: string;
  readonly judgement: Judgement;
  readonly evidence: Evidence;
  readonly heldBackBy: readonly BlockerGroup[];
  /** A rolled-out route's steps the log names, each counted apart, oldest first (src/report/step-sections.ts); absent when none. */
  readonly steps?: readonly StepSection[];
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
  /**
   * Its GET requests with credentials over plain http whose JSON was chosen by Content-Type alone:
   * under `plainHttpCredentials: redirect` its HTTP library may drop that header following the 308
   * and get XML.
   */
  readonly redirectBreaks: number;
  /** What blocks its migration, by requests, most first. */
  readonly blockers: readonly Blocker[];
}

/** One client's page (src/report/client-sections.ts; the console's client page shows the same). */
export interface ClientSection {
  readonly client: string;
  readonly label: string | undefined;
  readonly requests: number;
  /** The operations it calls, most requests first: per side that answered (legacy, api2, fallback, gateway) the answers and the 4xx and 5xx among them. */
  readonly operations: ReadonlyArray<{
    readonly operation: string;
    readonly requests: number;
    readonly sides: ReadonlyArray<{ readonly side: string; readonly answers: number; readonly status4xx: number; readonly status5xx: number }>;
  }>;
  /** The mappings' declared losses on the operations api2 answered it (src/catalogue/movability.ts mappingFor), in operation order. */
  readonly losses: ReadonlyArray<{ readonly operation: string; readonly field: string; readonly why: string }>;
  /** Its client programs (User-Agent families), most requests first (at most 10, then `(other programs)`; `(no User-Agent)` for the rest). */
  readonly programs: ReadonlyArray<{ readonly program: string; readonly requests: number }>;
  /** Where the config's rollout plans put it; null when the report was given no config. */
  readonly standing: ClientStanding | null;
}

/** A client whose answers carried the deprecation signal: since when, and which signals. */
export interface ToldClient {
  readonly client: string;
  readonly label: string | undefined;
  /** ISO time of its first answer with the signal. */
  readonly since: string;
  /** The signals it got (`deprecation`, `sunset`, `deprecation+sunset`), in code point order. */
  readonly signals: readonly string[];
  /** Its requests answered with the signal. */
  readonly requests: number;
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
  /** Every catalogued operation (and the uncatalogued calls, when any), in catalogue order. */
  readonly readiness: {
    /** `16 operations: 3 done, 1 held by a gate, 4 cannot move, …`. */
    readonly headline: string;
    /** Catalogued operations per state. */
    readonly states: Readonly<Record<OperationState, number>>;
    /** The config version (content hash) whose evidence was judged; null when no line names one. */
    readonly configVersion: string | null;
    /** Which gates the states were judged on: each plan's (`--config`), or the default plans'. */
    readonly gates: string;
    /** Every config version the log holds (judge another with `--config-version`). */
    readonly configVersions: readonly string[];
    /** api2 circuit breaker opens in the log; null when the source does not know (ClickHouse). */
    readonly api2BreakerOpens: number | null;
    readonly operations: readonly OperationReadiness[];
  };
  /** By requests, most first. */
  readonly operations: readonly OperationReport[];
  /** Catalogued operations with no request in the log (an operation seen only in shadow lines is listed too). */
  readonly unseenOperations: readonly string[];
  readonly uncatalogued: readonly UncataloguedReport[];
  /** By remaining legacy use, most first. */
  readonly clients: readonly ClientReport[];
  /** What a policy change would break: the clients with `redirectBreaks`, most requests first. */
  readonly policy: {
    readonly redirect: ReadonlyArray<{ readonly client: string; readonly label: string | undefined; readonly requests: number }>;
  };
  /** Rollout decisions (`"msg":"rollout"` lines), per operation by name, each in time order. */
  readonly rollouts: readonly RolloutReport[];
  /** One section per client (its operations, sides, errors, losses, programs, standing), most requests first. */
  readonly clientSections: readonly ClientSection[];
  /** The clients told of the deprecation (docs/deprecation.md), told first first. */
  readonly told: readonly ToldClient[];
  readonly timeline: {
    readonly stepSeconds: number;
    /** Every mode seen, most requests first. */
    readonly modes: readonly string[];
    readonly buckets: readonly TimelineBucket[];
  };
  /** Requests per UTC day and side, when the log spans days (empty past 120 days: the timeline's step is then a week). */
  readonly trends: {
    readonly days: ReadonlyArray<{ readonly day: string; readonly legacy: number; readonly api2: number }>;
  };
  /** First 100 broken lines; `summary.brokenLines` has the count. */
  readonly brokenLines: readonly BrokenLine[];
}

/**
 * Shadow comparison (Diffy / Scientist style), for routes in shadow mode: the client is answered
 * by legacy; for a sample of safe requests the api2 mapping is also run in the background, and
 * both legacy-shaped answers are compared field by field after the mapping's declared losses and
 * the route's ignore list. Fields that differ between two legacy answers to the same request are
 * noise (Diffy's primary/secondary), reported but never blamed on the mapping.
 *
 * A comparison that a write of its scope overlapped (src/traffic/write-clock.ts, told by the caller
 * through `raced`) is a race: both sides are asked once more (`again`), and if that races too it is
 * recorded as `race`, counted apart from agreement (docs/rollout.md "Races"). DECISION: a race is
 * compared once more, not only left out: 5 % of comparisons lost to races would cost a step 5 % more
 * comparisons; made again, only the ones that race twice are lost.
 *
 * An api2 that answers 5xx, times out or refuses the call (while legacy answered) is unavailable,
 * not differing: recorded as `unavailable`, left out of agreement, counted against api2's
 * availability (the error-rate gate: src/migration/rollout/gates.ts).
 *
 * The client never waits: the comparison starts after the answer is ready, under a concurrency
 * cap (past it, a sampled request is skipped, counted) and with its own deadline. Writes are never
 * shadowed: the caller only offers safe operations. Answers are compared as JSON: for a client
 * that was answered XML the caller has legacy's JSON answer asked in the background (`primary`).
 */
import type { OperationId } from '../catalogue/operations.js';
import type { Loss } from '../../mappings/types.js';
import { diffFields } from './field-diff.js';
import type { FieldDiff } from './field-diff.js';
import { webCompression } from '../http/compression.js';
import type { Compression } from '../http/compression.js';
import { applyLosses } from './losses.js';
import { keepExample } from './diff-examples.js';
import type { DiffExample } from './diff-examples.js';

export interface ShadowRecord {
  readonly kind: 'shadow';
  readonly time: string;
  /** The comparison's own identity (a UUID): its line's `id`, its row key in ClickHouse. Absent only from records made by hand. */
  readonly id?: string;
  readonly requestId: string | undefined;
  readonly operation: OperationId;
  /** The route's mode in force when the request was answered (its line's `routeMode`: the evidence of a rollout's step). */
  readonly routeMode?: string;
  /** On a rolled-out route, when its step in force began (its line's `stepSince`). */
  readonly stepSince?: number;
  /**
   * compared: both answers read; race: a write of its scope overlapped it (twice), not compared;
   * unavailable: api2 answered 5xx, timed out or refused (legacy answered); skipped: why not.
   */
  readonly outcome: 'equal' | 'differ' | 'race' | 'unavailable' | 'skipped';
  readonly reason?: string;
  /** Differences blamed on the mapping (noise removed), at most 20. */
  readonly diffs?: readonly FieldDiff[];
  /** Paths legacy itself varied on between two calls, at most 20. */
  readonly noise?: readonly string[];
  readonly legacyStatus?: number;
  readonly api2Status?: number;
}

export interface OperationShadowStats {
  compared: number;
  equal: number;
  differing: number;
  skipped: number;
  /** Comparisons a write of their scope overlapped (twice): neither equal nor differing. */
  raced: number;
  /** Comparisons api2 answered 5xx, timed out or refused: neither equal nor differing. */
  unavailable: number;
  /** Field path → how many comparisons blamed it. */
  readonly fields: Map<string, number>;
  /** Field path → how many comparisons found legacy itself varying on it. */
  readonly noise: Map<string, number>;
  /** Field path → its latest example pairs (bounded: src/traffic/diff-examples.ts). */
  readonly examples: Map<string, DiffExample[]>;
}

export interface ShadowSnapshot {
  readonly operation: string;
  readonly compared: number;
  readonly equal: number;
  readonly differing: number;
  readonly skipped: number;
  readonly raced: number;
  readonly unavailable: number;
  readonly agreement: number | null;
  readonly topFields: ReadonlyArray<{ path: string; count: number }>;
  readonly noiseFields: ReadonlyArray<{ path: string; count: number }>;
  /** Recent example pairs (legacy value, api2 value, time) of the top differing paths, newest first per path. */
  readonly examples: readonly DiffExample[];
}

/** One answer, as the comparison needs it. */
export interface ShadowAnswer {
  readonly status: number;
  readonly contentType: string | null;
  readonly contentEncoding: string | null;
  readonly body: Uint8Array;
}

export interface ShadowJob {
  readonly operation: OperationId;
  readonly requestId: string | undefined;
  /** The route's mode in force, carried onto the record. */
  readonly routeMode?: string;
  /** When a rolled-out route's step in force began, carried onto the record. */
  readonly stepSince?: number | undefined;
  readonly losses: readonly Loss[];
  readonly ignore: ReadonlySet<string>;
  /**
   * Legacy's answer: the client's, or, when the client's was not JSON (an XML client), legacy's JSON
   * answer to the same request, asked once the comparison runs (so under the cap, like the rest).
   */
  readonly primary: ShadowAnswer | (() => Promise<ShadowAnswer>);
  readonly candidate: () => Promise<ShadowAnswer>;
  /** A second legacy answer to the same request, for noise; absent when noise is not measured. */
  readonly secondary?: () => Promise<ShadowAnswer>;
  /** Told the comparison's record once it ends, whatever its outcome (the request's trace waits for it). */
  readonly settled?: ((record: ShadowRecord) => void) | undefined;
  /** Whether a write of the comparison's scope overlapped it, asked once its answers are read. */
  readonly raced?: () => boolean;
  /** After a race: both sides asked afresh, with their own `raced` (compared once more, then a race is recorded). */
  readonly again?: () => Pick<ShadowJob, 'primary' | 'candidate' | 'raced'>;
}

const RACE_REASON = 'a write of its scope overlapped it, and the comparison made again';

export interface ShadowOptions {
  readonly maxConcurrent: number;
  /** How a gzip answer is read (the runtime's, else the web's), and the most bytes it may decode to (a comparison past it is skipped). */
  readonly compression?: Compression;
  readonly maxDecodedBytes: number;
  readonly onRecord?: (record: ShadowRecord) => void;
}

const MAX_LISTED = 20;

async function readJson(answer: ShadowAnswer, options: ShadowOptions): Promise<{ ok: true; value: unknown } | { ok: false; reason: string }> {
  if (!answer.contentType || !/json/i.test(answer.contentType)) return { ok: false, reason: 'not-json' };
  let bytes = answer.body;
  if (answer.contentEncoding && /gzip/i.test(answer.contentEncoding)) {
    try {
      bytes = await (options.compression ?? webCompression).gunzip(bytes as Uint8Array<ArrayBuffer>, options.maxDecodedBytes);
    } catch {
      return { ok: false, reason: 'invalid-gzip' };
    }
  } else if (answer.contentEncoding && !/identity/i.test(answer.contentEncoding)) {
    return { ok: false, reason: `encoding-${answer.contentEncoding}` };
  }
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(bytes)) as unknown };
  } catch {
    return { ok: false, reason: 'invalid-json' };
  }
}

export class ShadowComparator {
  private running = 0;
  private readonly stats = new Map<OperationId, OperationShadowStats>();

  constructor(private readonly options: ShadowOptions) {}

  /**
   * Starts a comparison in the background unless the cap is reached. Never throws, never waits;
   * `defer` is given the running comparison (the runtime keeps it alive: edge `waitUntil`).
   */
  offer(job: ShadowJob, defer?: (work: Promise<unknown>) => void): void {
    if (this.running >= this.options.maxConcurrent) {
      this.finish(job, { outcome: 'skipped', reason: 'concurrency-cap' });
      return;
    }
    this.running += 1;
    const comparing = this.compare(job)
      .catch((error: unknown) => this.finish(job, { outcome: 'skipped', reason: `error: ${String(error)}` }))
      .finally(() => {
        this.running -= 1;
      });
    defer?.(comparing);
  }

  get inFlight(): number {
    return this.running;
  }

  snapshot(): ShadowSnapshot[] {
    return [...this.stats].map(([operation, s]) => ({
      operation,
      compared: s.compared,
      equal: s.equal,
      differing: s.differing,
      skipped: s.skipped,
      raced: s.raced,
      unavailable: s.unavailable,
      agreement: s.compared === 0 ? null : s.equal / s.compared,
      topFields: top(s.fields),
      noiseFields: top(s.noise),
      examples: top(s.fields).flatMap(({ path }) => [...(s.examples.get(path) ?? [])].reverse()),
    }));
  }

  private async compare(job: ShadowJob): Promise<void> {
    const primaryAnswer = typeof job.primary === 'function' ? await job.primary() : job.primary;
    // Legacy failing (when asked in the background) is not api2 differing: nothing is compared.
    if (primaryAnswer.status >= 500) return this.finish(job, { outcome: 'skipped', reason: `legacy answer ${primaryAnswer.status}` });
    const primary = await readJson(primaryAnswer, this.options);
    if (!primary.ok) return this.finish(job, { outcome: 'skipped', reason: `legacy answer ${primary.reason}` });
    const [candidateAnswer, secondaryAnswer] = await Promise.all([job.candidate().catch((error: unknown) => String(error)), job.secondary?.()]);
    // api2 down is not api2 differing: counted against its availability.
    if (typeof candidateAnswer === 'string') return this.finish(job, { legacyStatus: primaryAnswer.status, outcome: 'unavailable', reason: `api2 call failed: ${candidateAnswer}` });
    const base = { legacyStatus: primaryAnswer.status, api2Status: candidateAnswer.status };
    if (candidateAnswer.status >= 500) return this.finish(job, { ...base, outcome: 'unavailable', reason: `api2 answered ${candidateAnswer.status}` });
    if (job.raced?.()) {
      if (job.again) return this.compare({ ...job, ...job.again(), again: undefined });
      return this.finish(job, { ...base, outcome: 'race', reason: RACE_REASON });
    }
    if (candidateAnswer.status !== primaryAnswer.status) {
      return this.finish(job, { ...base, outcome: 'differ', diffs: [{ path: '(status)', kind: 'changed' }] });
    }
    const candidate = await readJson(candidateAnswer, this.options);
    if (!candidate.ok) return this.finish(job, { ...base, outcome: 'skipped', reason: `api2 answer ${candidate.reason}` });

    const left = applyLosses(primary.value, job.losses);
    const right = applyLosses(candidate.value, job.losses);
    const noise = new Set<string>();
    if (secondaryAnswer) {
      const secondary = await readJson(secondaryAnswer, this.options);
      if (secondary.ok) for (const d of diffFields(left, applyLosses(secondary.value, job.losses), job.ignore)) noise.add(d.path);
    }
    const blamed = diffFields(left, right, job.ignore).filter((d) => !noise.has(d.path));
    this.finish(job, {
      ...base,
      outcome: blamed.length === 0 ? 'equal' : 'differ',
      diffs: blamed.slice(0, MAX_LISTED),
      noise: [...noise].slice(0, MAX_LISTED),
    });
  }

  private finish(job: ShadowJob, result: Omit<ShadowRecord, 'kind' | 'time' | 'id' | 'operation' | 'requestId' | 'routeMode' | 'stepSince'>): void {
    let s = this.stats.get(job.operation);
    if (!s) this.stats.set(job.operation, (s = { compared: 0, equal: 0, differing: 0, skipped: 0, raced: 0, unavailable: 0, fields: new Map(), noise: new Map(), examples: new Map() }));
    const time = new Date().toISOString();
    if (result.outcome === 'skipped') s.skipped += 1;
    else if (result.outcome === 'race') s.raced += 1;
    else if (result.outcome === 'unavailable') s.unavailable += 1;
    else {
      s.compared += 1;
      if (result.outcome === 'equal') s.equal += 1;
      else s.differing += 1;
    }
    for (const d of result.diffs ?? []) {
      s.fields.set(d.path, (s.fields.get(d.path) ?? 0) + 1);
      if (d.legacy !== undefined && d.api2 !== undefined) keepExample(s.examples, { path: d.path, legacy: d.legacy, api2: d.api2, time });
    }
    for (const path of result.noise ?? []) s.noise.set(path, (s.noise.get(path) ?? 0) + 1);
    const record: ShadowRecord = { kind: 'shadow', time, id: crypto.randomUUID(), requestId: job.requestId, operation: job.operation, ...(job.routeMode !== undefined ? { routeMode: job.routeMode } : {}), ...(job.stepSince !== undefined ? { stepSince: job.stepSince } : {}), ...result };
    this.options.onRecord?.(record);
    job.settled?.(record);
  }
}

function top(counts: ReadonlyMap<string, number>): Array<{ path: string; count: number }> {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([path, count]) => ({ path, count }));
}

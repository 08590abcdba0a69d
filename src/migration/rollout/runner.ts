/**
 * The rollout loop of one process: every `rollout.evaluationMs` it reads the states from the store,
 * and when it may evaluate (per process always; in a fleet while it holds the lease) it asks the
 * live counters for each running step's evidence, lets the controller decide, and writes what
 * moved (compare-and-set) with its events. Every replica follows the stored states, so a step
 * moved by the lease holder is in force everywhere within one period.
 *
 * Freezing: a store that is out (Redis down), or counters that can only answer for this replica
 * where the fleet's are expected, move nothing; the routes keep the exposure they had. One
 * `frozen` event says so, one `unfrozen` when it ends.
 *
 * `route(id)` is what the pipeline reads per request: synchronous, from the last states read.
 */
import { OPERATIONS } from '../../catalogue/operations.js';
import type { OperationId } from '../../catalogue/operations.js';
import type { RolloutPlan } from '../../config/rollout.js';
import { movability } from '../../catalogue/movability.js';
import type { GatewayConfig } from '../../config/schema.js';
import { applyAction } from './actions.js';
import type { Actor, RolloutAction } from './actions.js';
import { evaluate, planStarted } from './controller.js';
import type { OperationEvidence, WindowEvidence } from './gates.js';
import type { GateResult, Position, RolloutEvent, RolloutState } from './state.js';
import { afterMove, exposesApi2, exposureFor, exposureOf, holdsNobody, initialState, planKey, replan } from './steps.js';
import type { Exposure } from './steps.js';
import { keepEvents } from './repeats.js';
import type { EventWrite } from './repeats.js';
import { mayRestore } from './store.js';
import type { Evaluation, RolloutStore, StoredState } from './store.js';

/** The part of the live counters (src/migration/live-counters.ts) the loop reads. */
export interface EvidenceSource {
  readonly scope: 'fleet' | 'replica';
  readonly bucketMs: number;
  window(sinceMs: number): Promise<{ readonly scope: 'fleet' | 'replica'; readonly operations: ReadonlyMap<OperationId, OperationEvidence>; readonly api2BreakerOpens: number }>;
}

export interface RunnerOptions {
  readonly config: GatewayConfig;
  readonly store: RolloutStore;
  readonly counters: EvidenceSource;
  /** Told every event this process decided (the usage log, the metrics). */
  readonly onEvent?: (event: RolloutEvent) => void;
  /** A move this process wrote took clients off api2, or a plan ended: the pages the route served are to go (every replica, the shared tier). */
  readonly onPagesStale?: (operation: OperationId) => void;
  readonly now?: () => number;
}

/** One operation's rollout as the admin view and the console show it. */
export interface RolloutStatusView {
  readonly operation: OperationId;
  readonly state: RolloutState | null;
  readonly exposure: Exposure;
  readonly steps: readonly Position[];
  readonly last: boolean;
  /** The gates judged at this operation's last evaluation (held or not): this replica's while it holds the lease, else the holder's as stored; null before any. */
  readonly judged: (Judged & { readonly by: 'this replica' | 'lease holder' }) | null;
  /** A percentage step that no client seen in it falls in (it would wait for ever), in words; else null. */
  readonly holdsNobody: string | null;
  /** The clients the plan holds back on legacy at every step (its last step is "done except" them). */
  readonly held: readonly string[];
}

type Judged = Evaluation[string];

export interface RolloutSnapshot {
  /** memory, file or redis (docs/rollout.md: what survives a restart, what is shared). */
  readonly store: RolloutStore['kind'];
  /** This process evaluates now (per process: always; a fleet: the lease holder). */
  readonly leader: boolean;
  /** Why nothing moves now (the store or the fleet's counters are out), or null. */
  readonly frozen: string | null;
  readonly evaluationMs: number;
  readonly lastEvaluation: string | null;
  readonly operations: readonly RolloutStatusView[];
  /** The last events, oldest first. */
  readonly events: readonly RolloutEvent[];
}

const LEGACY: Exposure = exposureOf('legacy');

export class RolloutRunner {
  private config: GatewayConfig;
  private plans: Map<OperationId, RolloutPlan>;
  private states = new Map<OperationId, StoredState>();
  private exposures = new Map<OperationId, Exposure>();
  private recent: RolloutEvent[] = [];
  private judged = new Map<OperationId, Judged>();
  /** The lease holder's last evaluation, as stored (a replica without the lease shows it). */
  private holderJudged: Evaluation = {};
  private leader = false;
  private frozen: string | null = null;
  private lastEvaluation: number | null = null;
  /** When the config in force came into force here (0: this process started with it). */
  private configSince = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly now: () => number;

  constructor(private readonly options: RunnerOptions) {
    this.config = options.config;
    this.plans = plansOf(options.config);
    this.now = options.now ?? (() => Date.now());
  }

  /** What the route of `id` exposes now, or undefined when it has no plan (its configured mode). */
  route(id: OperationId): Exposure | undefined {
    if (!this.plans.has(id)) return undefined;
    return this.exposures.get(id) ?? LEGACY;
  }

  /** Reads (or makes) the states once, then evaluates every `evaluationMs` until closed. */
  async start(): Promise<void> {
    await this.tick();
    this.schedule();
  }

  /** One evaluation now (the loop's; tests call it to avoid waiting). Never rejects. */
  tick(): Promise<void> {
    this.running = this.running.then(() => this.evaluateAll().catch((error: unknown) => this.freeze(`rollout store out (${String(error)})`)));
    return this.running;
  }

  /** A new config (hot reload): its plans from now on; a changed plan is applied at once. */
  async reload(config: GatewayConfig): Promise<void> {
    const before = this.plans;
    // Another config (a fixed mapping setting, a shadow ignore...) may answer otherwise: its steps are judged on what came after it.
    if (JSON.stringify(config) !== JSON.stringify(this.config)) this.configSince = this.now();
    this.config = config;
    this.plans = plansOf(config);
    for (const id of before.keys()) {
      if (this.plans.has(id)) continue;
      const stored = this.states.get(id);
      this.exposures.delete(id);
      this.states.delete(id);
      this.judged.delete(id);
      if (stored) this.emit([{ time: new Date(this.now()).toISOString(), operation: id, kind: 'plan-removed', from: stored.state.at, to: 'legacy', status: stored.state.status, by: 'config', reason: 'the plan was removed from the config: the route takes its configured mode' }]);
      if (stored && exposesApi2(stored.state.at)) this.options.onPagesStale?.(id);
      await this.options.store.remove(id).catch(() => undefined);
    }
    await this.tick();
  }

  /** An operator's action on one operation, applied now (compare-and-set against the loop). */
  async act(id: OperationId, action: RolloutAction, actor: Actor = {}): Promise<{ ok: true; state: RolloutState } | { ok: false; status: number; error: string }> {
    const plan = this.plans.get(id);
    if (!plan) return { ok: false, status: 404, error: `${id} has no rollout plan` };
    for (let attempt = 0; attempt < 5; attempt++) {
      let stored: StoredState | undefined;
      try {
        stored = (await this.read([id])).get(id);
      } catch (error) {
        return { ok: false, status: 503, error: `the rollout store is out (${String(error)}): nothing was changed` };
      }
      const base = stored?.state ?? initialState(id, plan, this.now(), this.readsDone(id));
      const outcome = applyAction(stored && stored.state.plan !== planKey(plan) ? replan(base, plan, this.now()).state : base, plan, action, this.now(), actor);
      if (!outcome.ok) return { ok: false, status: 409, error: `${id} ${outcome.error}` };
      const written = await this.write(outcome.state, stored).catch(() => null);
      if (written === null) return { ok: false, status: 503, error: 'the rollout store is out: nothing was changed' };
      if (written === false) continue;
      await this.record([outcome.event]);
      return { ok: true, state: written.state };
    }
    return { ok: false, status: 409, error: `${id}: the rollout kept moving; try again` };
  }

  snapshot(): RolloutSnapshot {
    return {
      store: this.options.store.kind,
      leader: this.leader,
      frozen: this.frozen,
      evaluationMs: this.config.rollout.evaluationMs,
      lastEvaluation: this.lastEvaluation === null ? null : new Date(this.lastEvaluation).toISOString(),
      operations: [...this.plans].map(([operation, plan]) => {
        const state = this.states.get(operation)?.state ?? null;
        const own = this.leader ? this.judged.get(operation) : undefined;
        const holder = this.leader ? undefined : this.holderJudged[operation];
        const judged = own ? { ...own, by: 'this replica' as const } : holder ? { ...holder, by: 'lease holder' as const } : null;
        return { operation, state, exposure: this.route(operation) ?? LEGACY, steps: plan.steps, last: state !== null && state.step === plan.steps.length - 1, judged, holdsNobody: judged?.holdsNobody ?? null, held: plan.hold };
      }),
      events: this.recent,
    };
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.options.store.close();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick().then(() => this.schedule());
    }, this.config.rollout.evaluationMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async evaluateAll(): Promise<void> {
    const { store } = this.options;
    const ids = [...this.plans.keys()];
    if (ids.length === 0) return;
    this.leader = await store.lead(this.config.rollout.evaluationMs * 3);
    await this.readEvents();
    const loaded = await this.read(ids);
    if (!this.leader) {
      this.judged.clear();
      this.holderJudged = await store.evaluation();
      return this.unfreeze();
    }

    const now = this.now();
    const decided: RolloutEvent[] = [];
    let countersOut = false;
    for (const [id, plan] of this.plans) {
      const stored = loaded.get(id);
      let state = stored?.state ?? initialState(id, plan, now, this.readsDone(id));
      const events: RolloutEvent[] = !stored && state.status === 'running' ? [planStarted(state, now)] : [];
      if (state.plan !== planKey(plan)) {
        const changed = replan(state, plan, now);
        state = changed.state;
        if (changed.event) events.push(changed.event);
      }
      if (state.status === 'running' || state.status === 'waiting') {
        const evidence = state.status === 'running' ? await this.evidence(id, state, now) : null;
        if (evidence === undefined) {
          // The fleet's counters are out: nothing moves (a plan change above is still written).
          countersOut = true;
        } else {
          const decision = evaluate(state, plan, { step: evidence?.step ?? EMPTY, recent: evidence?.recent ?? EMPTY, readsDone: this.readsDone(id) }, now);
          state = decision.state;
          events.push(...decision.events);
          // A notice (a step that holds nobody) is told whether or not the state moved.
          if (decision.judged) decided.push(...this.judge(id, plan, decision.state, decision.judged, evidence?.step ?? EMPTY, now));
        }
      }
      if (stored && state === stored.state) continue;
      // Moved meanwhile (an operator's action): its state stands, this decision is dropped.
      if ((await this.write(state, stored)) === false) continue;
      decided.push(...events);
    }
    this.lastEvaluation = now;
    await store.setEvaluation(Object.fromEntries(this.judged)).catch(() => undefined);
    if (countersOut) this.freeze('the fleet counters are out (Redis): judged on one replica, a step would move on a part of the evidence');
    else this.unfreeze();
    await this.record(decided);
  }

  /** The fleet's recent events (a shared store's), after putting back the copy this replica holds if the store lost them. */
  private async readEvents(): Promise<void> {
    const { store } = this.options;
    if (store.kind === 'memory') return;
    const keep = this.config.rollout.keepEvents;
    const stored = await store.events(keep);
    if (stored.length === 0 && this.recent.length > 0 && (await store.restoreEvents(this.recent))) return;
    this.recent = stored.length > 0 ? stored : await store.events(keep);
  }

  /**
   * The stored states of `ids`, after putting back any this replica had read that the store lost
   * (or holds only a younger rollout of): a `restored` event each. Only a plan no replica ever saw
   * starts at its first step.
   */
  private async read(ids: readonly OperationId[]): Promise<Map<OperationId, StoredState>> {
    const { store } = this.options;
    const loaded = await store.load(ids);
    const restored: RolloutEvent[] = [];
    for (const id of ids) {
      const held = this.states.get(id);
      if (held === undefined || !mayRestore(held, loaded.get(id))) continue;
      if (await store.restore(held)) {
        loaded.set(id, held);
        const { at, status } = held.state;
        restored.push({ time: new Date(this.now()).toISOString(), operation: id, kind: 'restored', from: at, to: at, status, by: 'controller', reason: `the shared store had lost this rollout's state (restarted empty, or the key evicted or deleted): put back version ${held.version} as this replica last read it` });
      } else {
        const found = (await store.load([id])).get(id);
        if (found) loaded.set(id, found);
        else loaded.delete(id);
      }
    }
    for (const [id, stored] of loaded) this.follow(id, stored);
    await this.record(restored);
    return loaded;
  }

  /** Writes `state` over `stored` (compare-and-set) and follows it; false when it moved meanwhile. */
  private async write(next: RolloutState, stored: StoredState | undefined): Promise<StoredState | false> {
    const state = afterMove(stored?.state, next);
    const version = await this.options.store.put(state, stored?.version ?? null);
    if (version === false) return false;
    const written = { state, version };
    this.follow(state.operation, written);
    if (state.pageEpoch !== (stored?.state.pageEpoch ?? state.pageEpoch)) this.options.onPagesStale?.(state.operation);
    return written;
  }

  /** Keeps this evaluation's gates for the views; says once per step when a percentage step holds none of the clients seen in it (it would wait for ever). */
  private judge(id: OperationId, plan: RolloutPlan, state: RolloutState, gates: readonly GateResult[], step: WindowEvidence, now: number): RolloutEvent[] {
    const idle = state.status === 'running' && now - state.since >= this.config.rollout.evaluationMs ? holdsNobody(state.at, step.counts, plan) : null;
    const known = this.judged.get(id)?.holdsNobody ?? null;
    this.judged.set(id, { time: new Date(now).toISOString(), gates, holdsNobody: idle });
    if (idle === null || known !== null) return [];
    return [{ time: new Date(now).toISOString(), operation: id, kind: 'holds-nobody', from: state.at, to: state.at, status: state.status, by: 'controller', reason: idle }];
  }

  /** The step's and the last period's counts; undefined when only this replica's are to be had in a fleet. */
  private async evidence(id: OperationId, state: RolloutState, now: number): Promise<{ step: WindowEvidence; recent: WindowEvidence } | undefined> {
    const { counters } = this.options;
    const bucket = counters.bucketMs;
    // Whole buckets after the step began and the config came into force: nothing counted before a move or a config change is judged after it.
    const from = Math.ceil(Math.max(state.since, this.configSince) / bucket) * bucket;
    const [step, recent] = await Promise.all([counters.window(from), counters.window(Math.max(from, now - this.config.rollout.evaluationMs))]);
    if (counters.scope === 'fleet' && (step.scope !== 'fleet' || recent.scope !== 'fleet')) return undefined;
    const pick = (window: Awaited<ReturnType<EvidenceSource['window']>>): WindowEvidence => ({
      counts: from > now ? EMPTY.counts : (window.operations.get(id) ?? EMPTY.counts),
      api2BreakerOpens: from > now ? 0 : window.api2BreakerOpens,
    });
    return { step: pick(step), recent: pick(recent) };
  }

  /** A write's rollout starts once every read of its resource that can move is at its plan's last step (or on api2). */
  private readsDone(id: OperationId): boolean {
    const write = OPERATIONS.find((op) => op.id === id);
    if (!write || write.safe) return true;
    return OPERATIONS.filter((op) => op.resource === write.resource && op.safe && movability(op.id).canMove).every((read) => {
      const plan = this.plans.get(read.id);
      if (!plan) return this.config.routes[read.id]?.mode === 'api2';
      const state = this.states.get(read.id)?.state;
      return state !== undefined && state.status === 'running' && state.step === plan.steps.length - 1;
    });
  }

  private follow(id: OperationId, stored: StoredState): void {
    if (this.states.get(id) === stored) return;
    this.states.set(id, stored);
    this.exposures.set(id, exposureFor(this.plans.get(id), stored.state));
  }

  private freeze(reason: string): void {
    if (this.frozen === reason) return;
    const first = this.frozen === null;
    this.frozen = reason;
    if (first) this.emit(this.allOperations('frozen', `nothing moves: ${reason}`));
  }

  private unfreeze(): void {
    if (this.frozen === null) return;
    this.frozen = null;
    this.emit(this.allOperations('unfrozen', 'evidence and store back: the gates are judged again'));
  }

  private allOperations(kind: 'frozen' | 'unfrozen', reason: string): RolloutEvent[] {
    const time = new Date(this.now()).toISOString();
    return [...this.plans.keys()].map((operation) => {
      const state = this.states.get(operation)?.state;
      const at = state?.at ?? 'legacy';
      return { time, operation, kind, from: at, to: at, status: state?.status ?? 'running', by: 'controller', reason };
    });
  }

  /** Events decided here: told (log, metrics) and kept in the store for every replica's view. */
  private async record(events: readonly RolloutEvent[]): Promise<void> {
    if (events.length === 0) return;
    const writes = this.emit(events);
    await this.options.store.addEvents(writes, this.config.rollout.keepEvents).catch(() => undefined);
  }

  /** Kept in this process's list of recent events, a repeated failure in place of the one it repeats (repeats.ts), and told as kept (log, metrics). */
  private emit(events: readonly RolloutEvent[]): Array<EventWrite<RolloutEvent>> {
    const kept = keepEvents(this.recent, events, this.config.rollout.keepEvents);
    this.recent = kept.events;
    for (const { event } of kept.writes) this.options.onEvent?.(event);
    return kept.writes;
  }
}

const ZERO = { requests: 0, status5xx: 0, p95Ms: null };
const EMPTY: WindowEvidence = { counts: { legacy: ZERO, api2: ZERO, fallbacks: 0, shadow: { compared: 0, agreed: 0 } }, api2BreakerOpens: 0 };

function plansOf(config: GatewayConfig): Map<OperationId, RolloutPlan> {
  const plans = new Map<OperationId, RolloutPlan>();
  for (const [id, route] of Object.entries(config.routes)) if (route.rollout) plans.set(id as OperationId, route.rollout);
  return plans;
}

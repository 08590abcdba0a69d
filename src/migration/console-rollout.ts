/**
 * The console's rollout section, from the rollout runner's snapshot (src/migration/rollout/runner.ts):
 * per operation with a plan its step in force, its state (running, waiting, paused, frozen and
 * why, done, rolled back), the time in step and the last gate evaluation; then the recent moves
 * and failed gates, newest first, with when and why. Server-rendered, no script.
 */
import type { RolloutSnapshot } from './rollout/runner.js';
import { GATE_WORD, describeGate } from './rollout/gate-text.js';
import type { GateResult, RolloutEvent } from './rollout/state.js';
import { positionKey, positionLabel } from './rollout/steps.js';
import { html } from '../render/html.js';

/** Recent moves shown (the runner keeps `rollout.keepEvents`). */
const MOVES_SHOWN = 30;

export type ConsoleRolloutState = 'running' | 'waiting' | 'paused' | 'frozen' | 'done' | 'rolled-back';

/** The state shown: frozen (nothing moves, the snapshot says why) over the stored status; done at the last step. */
export function rolloutStateOf(snapshot: RolloutSnapshot, view: RolloutSnapshot['operations'][number]): ConsoleRolloutState {
  const status = view.state?.status ?? 'running';
  if (snapshot.frozen !== null && (status === 'running' || status === 'waiting')) return 'frozen';
  if (status === 'running' && view.last) return 'done';
  return status;
}

function seconds(ms: number): string {
  return ms < 120_000 ? `${Math.max(0, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`;
}

function gateList(gates: readonly GateResult[]) {
  return html`<ul>${gates.map((g) => html`<li data-gate="${g.gate}" data-window="${g.window}" data-outcome="${g.outcome}">${GATE_WORD[g.outcome]}: ${describeGate(g)}</li>`)}</ul>`;
}

function moveRow(event: RolloutEvent) {
  return html`<tr data-kind="${event.kind}" data-operation="${event.operation}" data-from="${positionKey(event.from)}" data-to="${positionKey(event.to)}"><td>${event.time}</td><td>${event.operation}</td><td>${event.kind}</td><td>${positionLabel(event.from)} → ${positionLabel(event.to)}</td><td>${event.by}</td><td>${event.reason}${event.gates?.some((g) => g.outcome === 'fail') ? gateList(event.gates.filter((g) => g.outcome === 'fail')) : ''}</td></tr>`;
}

/** The section, or nothing when no rollout plan runs. */
export function renderRolloutSection(snapshot: RolloutSnapshot | undefined, nowMs: number) {
  if (!snapshot) return '';
  const rows = snapshot.operations.map((view) => {
    const state = rolloutStateOf(snapshot, view);
    const { exposure } = view;
    const step = exposure.mode === 'canary' ? `canary ${exposure.canaryPercent} %` : exposure.mode;
    const since = view.state?.since ?? null;
    const held = view.held.length;
    const why = state === 'frozen' ? snapshot.frozen : state === 'done' && held > 0 ? `done except ${held} held client${held === 1 ? '' : 's'} (${view.held.join(', ')})` : (view.state?.reason ?? '');
    const idle = view.holdsNobody ? html`<br><strong class="open" data-field="holdsNobody">${view.holdsNobody}</strong>` : '';
    return html`<tr data-operation="${view.operation}"><td>${view.operation}</td><td data-field="step" data-value="${positionKey(view.state?.at ?? 'legacy')}">${step}<br><span class="muted">${view.steps.map(positionLabel).join(' → ')}</span></td><td data-field="state" data-value="${state}">${state}<br><span class="muted">${why}</span>${idle}</td><td class="n" data-field="timeInStep" data-value="${since === null ? '' : nowMs - since}">${since === null ? '-' : seconds(nowMs - since)}</td><td data-field="lastEvaluation" data-value="${view.judged?.time ?? ''}">${view.judged ? html`${view.judged.time}${view.judged.by === 'lease holder' ? html` <span class="muted">(by the lease holder)</span>` : ''}${gateList(view.judged.gates)}` : html`<span class="muted">not evaluated yet</span>`}</td></tr>`;
  });
  const moves = snapshot.events.filter((e) => e.from !== e.to || e.kind === 'gate-failed' || e.kind === 'pause' || e.kind === 'resume' || e.kind === 'frozen' || e.kind === 'unfrozen' || e.kind === 'restored' || e.kind === 'holds-nobody');
  const shown = moves.slice(-MOVES_SHOWN).reverse();
  return html`<h2>Rollouts</h2>
<p id="rollout-scope" class="muted" data-store="${snapshot.store}" data-leader="${String(snapshot.leader)}">State kept in ${snapshot.store}; ${snapshot.leader ? 'this replica evaluates the gates' : 'another replica evaluates the gates'} every ${snapshot.evaluationMs} ms; last evaluation ${snapshot.lastEvaluation ?? 'not yet'}.${snapshot.frozen ? html` <strong class="open">Frozen: ${snapshot.frozen}</strong>` : ''}</p>
<table id="rollouts"><thead><tr><th>operation</th><th>step in force (plan)</th><th>state</th><th>time in step</th><th>last gate evaluation</th></tr></thead><tbody>${rows}</tbody></table>
<h3>Recent moves</h3>
${shown.length === 0 ? html`<p class="muted" id="rollout-moves">No move yet.</p>` : html`<table id="rollout-moves"><thead><tr><th>when</th><th>operation</th><th>what</th><th>from → to</th><th>by</th><th>why</th></tr></thead><tbody>${shown.map(moveRow)}</tbody></table>`}`;
}

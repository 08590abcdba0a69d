/**
 * The console's rollout section, from the rollout runner's snapshot (src/migration/rollout/runner.ts)
 * and the one judgement (src/migration/judgement/): per operation with a plan its step in force,
 * its state (the judgement's: rolling out, held, paused, rolled back, done...) and why, the time
 * in step and the last gate evaluation; then the history, newest first, with consecutive
 * identical gate failures as one "held since T by G (N evaluations)" entry, and who acted and why.
 * Server-rendered, no script.
 */
import type { RolloutSnapshot } from '../migration/rollout/runner.js';
import { GATE_WORD, describeGate } from '../migration/rollout/gate-text.js';
import type { GateResult, RolloutEvent } from '../migration/rollout/state.js';
import { positionKey, positionLabel } from '../migration/rollout/steps.js';
import { collapseHistory } from '../migration/judgement/history.js';
import type { HistoryEntry } from '../migration/judgement/history.js';
import { STATE_TEXT } from '../migration/judgement/headline.js';
import type { Judgement } from '../migration/judgement/types.js';
import { html } from '../display/html.js';

/** History entries shown (the runner keeps `rollout.keepEvents` decisions). */
const MOVES_SHOWN = 30;


function seconds(ms: number): string {
  return ms < 120_000 ? `${Math.max(0, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`;
}

function gateList(gates: readonly GateResult[]) {
  return html`<ul>${gates.map((g) => html`<li data-gate="${g.gate}" data-window="${g.window}" data-outcome="${g.outcome}">${GATE_WORD[g.outcome]}: ${describeGate(g)}</li>`)}</ul>`;
}

/** `operator alice`, `controller`, `config`. */
export function actorText(event: { readonly by: string; readonly operator?: string | undefined }): string {
  return event.operator ? `${event.by} ${event.operator}` : event.by;
}

function historyRow(entry: HistoryEntry<RolloutEvent>) {
  if (entry.kind === 'held') {
    const failed = entry.last.gates?.filter((g) => g.outcome === 'fail') ?? [];
    return html`<tr data-kind="held" data-operation="${entry.operation}" data-from="${positionKey(entry.at as RolloutEvent['from'])}" data-to="${positionKey(entry.at as RolloutEvent['from'])}" data-evaluations="${entry.evaluations}"><td>${entry.since}${entry.evaluations > 1 ? html`<br><span class="muted">to ${entry.until}</span>` : ''}</td><td>${entry.operation}</td><td>held</td><td>${positionLabel(entry.at as RolloutEvent['from'])}</td><td>controller</td><td>held since ${entry.since} by ${entry.gates.join(', ') || 'a gate'} (${entry.evaluations} evaluation${entry.evaluations === 1 ? '' : 's'})${failed.length > 0 ? gateList(failed) : ''}</td></tr>`;
  }
  const event = entry.decision;
  return html`<tr data-kind="${event.kind}" data-operation="${event.operation}" data-from="${positionKey(event.from)}" data-to="${positionKey(event.to)}"><td>${event.time}</td><td>${event.operation}</td><td>${event.kind}</td><td>${positionLabel(event.from)} → ${positionLabel(event.to)}</td><td data-field="by">${actorText(event)}</td><td>${event.reason}${event.gates?.some((g) => g.outcome === 'fail') ? gateList(event.gates.filter((g) => g.outcome === 'fail')) : ''}</td></tr>`;
}

/** The section, or nothing when no rollout plan runs. */
export function renderRolloutSection(snapshot: RolloutSnapshot | undefined, nowMs: number, judgements: readonly Judgement[]) {
  if (!snapshot) return '';
  const rows = snapshot.operations.map((view) => {
    const judgement = judgements.find((j) => j.operation === view.operation);
    const state = judgement?.state ?? 'rolling-out';
    const { exposure } = view;
    const step = exposure.mode === 'canary' ? `canary ${exposure.canaryPercent} %` : exposure.mode;
    const since = view.state?.since ?? null;
    const why = judgement?.detail ?? '';
    const idle = view.holdsNobody ? html`<br><strong class="open" data-field="holdsNobody">${view.holdsNobody}</strong>` : '';
    return html`<tr data-operation="${view.operation}"><td>${view.operation}</td><td data-field="step" data-value="${positionKey(view.state?.at ?? 'legacy')}">${step}<br><span class="muted">${view.steps.map(positionLabel).join(' → ')}</span></td><td data-field="state" data-value="${state}">${STATE_TEXT[state]}<br><span class="muted">${why}</span>${idle}</td><td class="n" data-field="timeInStep" data-value="${since === null ? '' : nowMs - since}">${since === null ? '-' : seconds(nowMs - since)}</td><td data-field="lastEvaluation" data-value="${view.judged?.time ?? ''}">${view.judged ? html`${view.judged.time}${view.judged.by === 'lease holder' ? html` <span class="muted">(by the lease holder)</span>` : ''}${gateList(view.judged.gates)}` : html`<span class="muted">not evaluated yet</span>`}</td></tr>`;
  });
  const moves = snapshot.events.filter((e) => e.from !== e.to || e.kind === 'gate-failed' || e.kind === 'pause' || e.kind === 'resume' || e.kind === 'frozen' || e.kind === 'unfrozen' || e.kind === 'restored' || e.kind === 'holds-nobody');
  const shown = collapseHistory(moves).slice(-MOVES_SHOWN).reverse();
  return html`<h2>Rollouts</h2>
<p id="rollout-scope" class="muted" data-store="${snapshot.store}" data-leader="${String(snapshot.leader)}">State kept in ${snapshot.store}; ${snapshot.leader ? 'this replica evaluates the gates' : 'another replica evaluates the gates'} every ${snapshot.evaluationMs} ms; last evaluation ${snapshot.lastEvaluation ?? 'not yet'}.${snapshot.frozen ? html` <strong class="open">Frozen: ${snapshot.frozen}</strong>` : ''}</p>
<table id="rollouts"><thead><tr><th>operation</th><th>step in force (plan)</th><th>state</th><th>time in step</th><th>last gate evaluation</th></tr></thead><tbody>${rows}</tbody></table>
<h3>Recent moves</h3>
${shown.length === 0 ? html`<p class="muted" id="rollout-moves">No move yet.</p>` : html`<table id="rollout-moves"><thead><tr><th>when</th><th>operation</th><th>what</th><th>from → to</th><th>by</th><th>why</th></tr></thead><tbody>${shown.map(historyRow)}</tbody></table>`}`;
}

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
import { spanInWords, timeHtml, timesInText } from '../display/time.js';

/** History entries shown (the runner keeps `rollout.keepEvents` decisions). */
const MOVES_SHOWN = 30;


function gateList(gates: readonly GateResult[]) {
  return html`<ul>${gates.map((g) => html`<li data-gate="${g.gate}" data-window="${g.window}" data-outcome="${g.outcome}">${GATE_WORD[g.outcome]}: ${describeGate(g)}</li>`)}</ul>`;
}

/** `operator alice`, `controller`, `config`. */
export function actorText(event: { readonly by: string; readonly operator?: string | undefined }): string {
  return event.operator ? `${event.by} ${event.operator}` : event.by;
}

function historyRow(entry: HistoryEntry<RolloutEvent>, nowMs: number) {
  if (entry.kind === 'held') {
    const failed = entry.last.gates?.filter((g) => g.outcome === 'fail') ?? [];
    const at = positionKey(entry.at as RolloutEvent['from']);
    return html`<tr data-kind="held" data-operation="${entry.operation}" data-from="${at}" data-to="${at}" data-evaluations="${entry.evaluations}"><td>${timeHtml(entry.since, nowMs)}${entry.evaluations > 1 ? html`<br><span class="muted">to ${timeHtml(entry.until, nowMs)}</span>` : ''}</td><td>${entry.operation}</td><td>held</td><td>${positionLabel(entry.at as RolloutEvent['from'])}</td><td>controller</td><td>held by ${entry.gates.join(', ') || 'a gate'} since ${timeHtml(entry.since, nowMs)} (${entry.evaluations} evaluation${entry.evaluations === 1 ? '' : 's'})${failed.length > 0 ? gateList(failed) : ''}</td></tr>`;
  }
  const event = entry.decision;
  return html`<tr data-kind="${event.kind}" data-operation="${event.operation}" data-from="${positionKey(event.from)}" data-to="${positionKey(event.to)}"><td>${timeHtml(event.time, nowMs)}</td><td>${event.operation}</td><td>${event.kind}</td><td>${positionLabel(event.from)} → ${positionLabel(event.to)}</td><td data-field="by">${actorText(event)}</td><td>${event.reason}${event.gates?.some((g) => g.outcome === 'fail') ? gateList(event.gates.filter((g) => g.outcome === 'fail')) : ''}</td></tr>`;
}

/** History entries as table rows, in the order given. */
export function historyRows(entries: ReadonlyArray<HistoryEntry<RolloutEvent>>, nowMs: number) {
  return entries.map((entry) => historyRow(entry, nowMs));
}

/**
 * A failed gate that moved the route and the move it made (the controller writes both: the
 * gate-failed decision, then the rollback or step back) as one row: the move, with the gates.
 */
export function oneRowPerMove(events: readonly RolloutEvent[]): RolloutEvent[] {
  const out: RolloutEvent[] = [];
  for (const [i, event] of events.entries()) {
    const failed = out[out.length - 1];
    if (failed && failed.kind === 'gate-failed' && failed.operation === event.operation && event.kind !== 'gate-failed' && positionKey(failed.from) === positionKey(event.from) && positionKey(failed.to) === positionKey(event.to) && positionKey(event.from) !== positionKey(event.to)) {
      out[out.length - 1] = { ...event, gates: event.gates ?? failed.gates, reason: event.reason === failed.reason ? event.reason : `${failed.reason}; ${event.reason}` };
      continue;
    }
    out.push(events[i]!);
  }
  return out;
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
    const why = timesInText(judgement?.detail ?? '', nowMs);
    const idle = view.holdsNobody ? html`<br><strong class="open" data-field="holdsNobody">${view.holdsNobody}</strong>` : '';
    return html`<tr data-operation="${view.operation}"><td>${view.operation}</td><td data-field="step" data-value="${positionKey(view.state?.at ?? 'legacy')}">${step}<br><span class="muted">${view.steps.map(positionLabel).join(' → ')}</span></td><td data-field="state" data-value="${state}">${STATE_TEXT[state]}<br><span class="muted">${why}</span>${idle}</td><td class="n" data-field="timeInStep" data-value="${since === null ? '' : nowMs - since}">${since === null ? '-' : spanInWords(nowMs - since)}</td><td data-field="lastEvaluation" data-value="${view.judged?.time ?? ''}">${view.judged ? html`${timeHtml(view.judged.time, nowMs)}${view.judged.by === 'lease holder' ? html` <span class="muted">(by the lease holder)</span>` : ''}${gateList(view.judged.gates)}` : html`<span class="muted">not evaluated yet</span>`}</td></tr>`;
  });
  const moves = snapshot.events.filter((e) => e.from !== e.to || e.kind === 'gate-failed' || e.kind === 'pause' || e.kind === 'resume' || e.kind === 'frozen' || e.kind === 'unfrozen' || e.kind === 'restored' || e.kind === 'holds-nobody');
  const shown = collapseHistory(oneRowPerMove(moves)).slice(-MOVES_SHOWN).reverse();
  return html`<h2>Rollouts</h2>
<p id="rollout-scope" class="muted" data-store="${snapshot.store}" data-leader="${String(snapshot.leader)}">State kept in ${snapshot.store}; ${snapshot.leader ? 'this replica evaluates the gates' : 'another replica evaluates the gates'} every ${snapshot.evaluationMs} ms; last evaluation ${snapshot.lastEvaluation ? timeHtml(snapshot.lastEvaluation, nowMs) : 'not yet'}.${snapshot.frozen ? html` <strong class="open">Frozen: ${snapshot.frozen}</strong>` : ''}</p>
<details id="rollout-steps"><summary>Each rollout's step, time in step and last gate evaluation</summary><div class="scroll"><table id="rollouts"><thead><tr><th>operation</th><th>step in force (plan)</th><th>state</th><th>time in step</th><th>last gate evaluation</th></tr></thead><tbody>${rows}</tbody></table></div></details>
<details id="history"><summary>Recent moves (${shown.length}), newest first</summary>
${shown.length === 0 ? html`<p class="muted" id="rollout-moves">No move yet.</p>` : html`<div class="scroll"><table id="rollout-moves"><thead><tr><th>when</th><th>operation</th><th>what</th><th>from → to</th><th>by</th><th>why</th></tr></thead><tbody>${shown.map((entry) => historyRow(entry, nowMs))}</tbody></table></div>`}</details>`;
}

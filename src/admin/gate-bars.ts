/**
 * An operation's gates as an operation's page shows them: per gate its outcome, n and k, its
 * finding in words, and for a rate gate its bounds drawn against its tolerance on a scale from 0
 * (every figure clamped to [0, 100 %]: an interval that reaches below 0 is drawn from 0).
 */
import { formatCount } from '../display/format.js';
import { html } from '../display/html.js';
import type { Html } from '../display/html.js';
import { GATE_WORD, describeGate } from '../migration/rollout/gate-text.js';
import type { GateResult } from '../migration/rollout/state.js';
import { gateSentence } from './operation-words.js';

const clamp = (rate: number): number => Math.min(1, Math.max(0, rate));

/** A rate in percent, clamped to [0, 100], at most 2 decimals. */
export const ratePercent = (rate: number): string => `${Number((clamp(rate) * 100).toFixed(2))} %`;

/** The bounds [lower, upper], the point value and the tolerance on a scale 0 … a little beyond the larger of them (at most 100 %). */
export function boundsBar(gate: GateResult): Html | '' {
  if (gate.lower == null || gate.upper == null || gate.bound === null) return '';
  const [lower, upper, bound] = [clamp(gate.lower), clamp(gate.upper), clamp(gate.bound)];
  const top = Math.min(1, Math.max(bound * 2, upper * 1.1, 0.01));
  const at = (rate: number): string => `${((Math.min(rate, top) / top) * 100).toFixed(1)}%`;
  const point = gate.measured === null ? '' : html`<span class="point" style="${`left:${at(clamp(gate.measured))}`}"></span>`;
  return html`<div class="bar" data-field="bounds" data-lower="${lower}" data-upper="${upper}" data-bound="${bound}" data-top="${top}" title="${`${ratePercent(lower)} to ${ratePercent(upper)}; tolerance ${ratePercent(bound)}; scale 0 to ${ratePercent(top)}`}"><span class="bounds" style="${`left:${at(lower)};width:${((Math.min(upper, top) - Math.min(lower, top)) / top) * 100}%`}"></span><span class="tolerance" style="${`left:${at(bound)}`}"></span>${point}</div><span class="muted">${ratePercent(lower)} to ${ratePercent(upper)} · tolerance ${ratePercent(bound)}</span>`;
}

export function gatesTable(gates: readonly GateResult[], paths: readonly string[]): Html {
  if (gates.length === 0) return html`<p class="muted" id="gates">No gate judged at this step yet.</p>`;
  const rows = gates.map(
    (g) =>
      html`<tr data-gate="${g.gate}" data-window="${g.window}" data-outcome="${g.outcome}"><td>${g.gate} <span class="muted">(${g.window === 'step' ? 'since the step began' : 'last period'})</span></td><td class="${g.outcome === 'fail' ? 'held' : g.outcome === 'pass' ? 'done' : 'collecting'}">${GATE_WORD[g.outcome]}</td><td class="n" data-field="n" data-value="${g.samples}">${formatCount(g.samples)}</td><td class="n" data-field="k" data-value="${g.adverse ?? ''}">${g.adverse == null ? '-' : formatCount(g.adverse)}</td><td>${boundsBar(g)}</td><td>${gateSentence(g, paths)}<br><span class="muted">${describeGate(g)}</span></td></tr>`,
  );
  return html`<div class="scroll"><table id="gates"><thead><tr><th>gate</th><th>outcome</th><th class="n">n</th><th class="n">k</th><th>bounds against the tolerance</th><th>finding</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

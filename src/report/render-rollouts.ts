/**
 * The report's rollout section (text and HTML): per operation each rollout decision in time order
 * (src/report/rollout-lines.ts): when, what, from → to, by whom (an operator's name when given),
 * why, and the gates judged with their numbers (failed ones first named); consecutive identical
 * gate failures are one "held since T by G (N evaluations)" entry (src/migration/judgement/history.ts),
 * as in the console and /admin/rollout. `--json` has every line whole.
 */
import { GATE_WORD, describeGate } from '../migration/rollout/gate-text.js';
import type { GateResult } from '../migration/rollout/state.js';
import { positionKey, positionLabel } from '../migration/rollout/steps.js';
import { collapseHistory } from '../migration/judgement/history.js';
import type { HistoryEntry } from '../migration/judgement/history.js';
import { html } from '../display/html.js';
import type { Html } from '../display/html.js';
import type { RolloutLine } from './rollout-lines.js';
import type { Report } from './types.js';

const gateText = (g: GateResult): string => `${GATE_WORD[g.outcome]}: ${describeGate(g)}`;
/** Failed gates first: they decided. */
const ordered = (line: RolloutLine): readonly GateResult[] => [...line.gates.filter((g) => g.outcome === 'fail'), ...line.gates.filter((g) => g.outcome !== 'fail')];
const actor = (line: RolloutLine): string => (line.operator ? `${line.by} ${line.operator}` : line.by);
const heldText = (entry: Extract<HistoryEntry<RolloutLine>, { kind: 'held' }>): string =>
  `held since ${entry.since} by ${entry.gates.join(', ') || 'a gate'} (${entry.evaluations} evaluation${entry.evaluations === 1 ? '' : 's'})`;

export function rolloutText(report: Report): string[] {
  if (report.rollouts.length === 0) return [];
  const out = ['', 'ROLLOUTS (each decision of the gateway, an operator or the config, in time order; identical gate failures in a row as one entry)'];
  for (const { operation, lines } of report.rollouts) {
    out.push(`${operation}:`);
    for (const entry of collapseHistory(lines)) {
      if (entry.kind === 'held') {
        out.push(`  ${entry.since}  ${heldText(entry)} at ${positionLabel(entry.at)}, last ${entry.until}`);
        for (const gate of ordered(entry.last).filter((g) => g.outcome === 'fail')) out.push(`      ${gateText(gate)}`);
        continue;
      }
      const line = entry.decision;
      out.push(`  ${line.time}  ${line.kind} ${positionLabel(line.from)} → ${positionLabel(line.to)} (${line.status}, by ${actor(line)}): ${line.reason}`);
      for (const gate of ordered(line)) out.push(`      ${gateText(gate)}`);
    }
  }
  return out;
}

export function rolloutHtml(report: Report): Html | '' {
  if (report.rollouts.length === 0) return '';
  const rows = report.rollouts.flatMap(({ operation, lines }) =>
    collapseHistory(lines).map((entry) => {
      if (entry.kind === 'held') {
        const failed = ordered(entry.last).filter((g) => g.outcome === 'fail');
        return html`<tr data-operation="${operation}" data-kind="held" data-from="${positionKey(entry.at)}" data-to="${positionKey(entry.at)}" data-time="${entry.since}" data-evaluations="${entry.evaluations}"><td>${entry.since}</td><td>${operation}</td><td>held</td><td>${positionLabel(entry.at)}</td><td>${entry.last.status}</td><td>controller</td><td>${heldText(entry)}, last ${entry.until}<ul>${failed.map((g) => html`<li data-gate="${g.gate}" data-window="${g.window}" data-outcome="${g.outcome}">${gateText(g)}</li>`)}</ul></td></tr>`;
      }
      const line = entry.decision;
      return html`<tr data-operation="${operation}" data-kind="${line.kind}" data-from="${positionKey(line.from)}" data-to="${positionKey(line.to)}" data-time="${line.time}"><td>${line.time}</td><td>${operation}</td><td>${line.kind}</td><td>${positionLabel(line.from)} → ${positionLabel(line.to)}</td><td>${line.status}</td><td data-field="by">${actor(line)}</td><td>${line.reason}${line.gates.length === 0 ? '' : html`<ul>${ordered(line).map((g) => html`<li data-gate="${g.gate}" data-window="${g.window}" data-outcome="${g.outcome}">${gateText(g)}</li>`)}</ul>`}</td></tr>`;
    }),
  );
  return html`<h2>Rollouts</h2><p class="muted">Each decision of the gateway, an operator or the config, per operation in time order, with the gates judged and their numbers; identical gate failures in a row are one "held since" entry (docs/rollout.md).</p><table id="rollouts"><thead><tr><th>when</th><th>operation</th><th>what</th><th>from → to</th><th>state</th><th>by</th><th>why (gates)</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * The console's sandbox panel (sandbox and demo mode only): the api2 fault in force and plain
 * HTML forms that set or clear one (POST to sandbox-admin.ts, answered 303 back to the console: no
 * JavaScript needed). The console refreshes itself every few seconds, so the usual faults are
 * one-button forms; the last form takes any setting.
 */
import { html } from '../display/html.js';
import type { Html } from '../display/html.js';
import { describeFault } from './api2-fault-setting.js';
import type { Api2Faults } from './api2-faults.js';
import { FAULT_CLEAR_PATH, FAULT_PATH } from './sandbox-admin.js';

/** The one-button faults: a label and the fields posted. */
export const PRESET_FAULTS: ReadonlyArray<{ readonly id: string; readonly label: string; readonly fields: Readonly<Record<string, string>> }> = [
  { id: 'disagree', label: 'api2 changes Title on 20 % of answers', fields: { kind: 'field', field: 'Title', percent: '20' } },
  { id: 'errors', label: 'api2 answers 503 on 50 % of requests', fields: { kind: 'status', status: '503', percent: '50' } },
  { id: 'slow', label: 'api2 answers 1.5 s late on 50 % of requests', fields: { kind: 'delay', delayMs: '1500', percent: '50' } },
];

function hidden(fields: Readonly<Record<string, string>>): Html[] {
  return Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
}

export function renderFaultPanel(faults: Api2Faults): string {
  const { fault, eligible, faulted } = faults.state();
  const presets = PRESET_FAULTS.map(
    (preset) => html`<form method="post" action="${FAULT_PATH}" class="fault" style="display:inline" data-fault="${preset.id}">${hidden(preset.fields)}<button type="submit">${preset.label}</button></form>`,
  );
  return html`<section id="sandbox-faults"><h2>Sandbox api2 faults</h2>
<p>In force: <strong data-field="fault" data-value="${fault?.kind ?? 'none'}">${describeFault(fault)}</strong>${fault ? ` (${faulted} of ${eligible} answers so far)` : ''}.
Make the sandbox api2 misbehave and watch the rollouts below hold or roll back; clear it and resume them.</p>
<div>${presets}
<form method="post" action="${FAULT_CLEAR_PATH}" class="fault" style="display:inline" data-fault="clear"><button type="submit">clear the fault</button></form></div>
<form method="post" action="${FAULT_PATH}" id="fault-custom">
<label>kind <select name="kind"><option value="field">change a field</option><option value="status">answer an error status</option><option value="delay">answer late</option></select></label>
<label>percent <input name="percent" type="number" min="0" max="100" step="any" value="10" size="4"></label>
<label>field <input name="field" value="Title" size="10"></label>
<label>status <input name="status" type="number" min="500" max="599" value="503" size="4"></label>
<label>delay ms <input name="delayMs" type="number" min="0" max="60000" value="1000" size="6"></label>
<label>path <input name="path" placeholder="/recipes" size="10"></label>
<button type="submit">set</button></form></section>`.toString();
}

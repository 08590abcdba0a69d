/**
 * A client's migration guide as one self-contained HTML page (model.ts has what it holds): every
 * value escaped by construction (src/display/html.ts); rows carry `data-` attributes with the raw
 * numbers for tests and tools.
 */
import { formatCount } from '../../display/format.js';
import { html, joinHtml, raw } from '../../display/html.js';
import type { Html } from '../../display/html.js';
import type { Guide, GuideOperation } from './model.js';
import { api2Where, noticePhrases, whose } from './render-markdown.js';
import { dateInWords } from '../../display/time.js';

// Fits 1280 px (and narrower): long paths, field names and curl lines wrap inside their cells.
const STYLE = 'body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:76rem;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}table{border-collapse:collapse;width:100%;table-layout:fixed}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f3f3f3;padding:.3rem;margin:.3rem 0;font-size:13px}td ul{margin:0;padding-left:1.1rem}.muted{color:#666}';

const codes = (texts: readonly string[]): Html => joinHtml(texts.map((text) => html`<code>${text}</code>`), ', ');
const dates = (phrases: readonly string[]): Html => html`${phrases.join('; ')}`;

function usageCells(op: GuideOperation): Html {
  return html`<td><code>${op.operation}</code><br><span class="muted">${op.summary}</span></td><td><code>${op.legacy}</code></td><td data-field="requests" data-value="${op.requests}">${formatCount(op.requests)}</td><td data-field="lastUse" data-value="${op.lastUse}">${dateInWords(op.lastUse)}</td><td>${op.bySide.map(([side, n]) => `${side} ${formatCount(n)}`).join(', ')}</td>`;
}

function movableRow(op: GuideOperation): Html {
  const api2 = op.api2!;
  const example = api2.example
    ? html`<code data-field="api2Request">${api2.example.request}</code><br><span class="muted" data-field="legacyRequest">for ${whose(api2.example)} <code>${api2.example.legacy}</code></span>${api2.example.query.length > 0 ? html`<br>query: ${codes(api2.example.query)}` : ''}${api2.example.body.length > 0 ? html`<br>JSON body: ${codes(api2.example.body)}` : ''}<br>`
    : '';
  const losses = op.losses.length === 0 ? html`none` : html`<ul>${op.losses.map((l) => html`<li data-loss="${l.field}"><code>${l.field}</code>: the gateway fills <code>${JSON.stringify(l.fill)}</code> (${l.why})</li>`)}</ul>`;
  const differences = op.differences.length === 0 ? '' : html`<ul>${op.differences.map((d) => html`<li>${d}</li>`)}</ul>`;
  const curl = op.curl === undefined ? '' : html`<pre data-field="curl">${op.curl}</pre>`;
  return html`<tr data-operation="${op.operation}">${usageCells(op)}<td>${example}${curl}calls: ${codes(api2.calls)}<br>headers: ${codes(api2.headers)}</td><td>${losses}${differences}</td><td>${dates(noticePhrases(op.notice, (url) => url))}</td></tr>`;
}

function legacyOnlyRow(op: GuideOperation): Html {
  return html`<tr data-operation="${op.operation}">${usageCells(op)}<td data-field="whyNot">${op.whyNot}</td><td>${dates(noticePhrases(op.notice, (url) => url))}</td></tr>`;
}

/** Column widths (a fixed layout: long names and curl lines wrap inside their column, never widen the page). */
const USAGE_COLUMNS = html`<col style="width:12%"><col style="width:8%"><col style="width:5%"><col style="width:9%"><col style="width:7%">`;

const USAGE_HEADERS = html`<th>operation</th><th>legacy request</th><th>requests</th><th>last use</th><th>answered by</th>`;

export function renderGuideHtml(guide: Guide): string {
  const total = [...guide.movable, ...guide.legacyOnly].reduce((sum, op) => sum + op.requests, 0);
  const notice = noticePhrases(guide.notice, (url) => url);
  const body = html`<h1>Migration guide for <span id="client">${guide.client}</span></h1>
<p>Your application (client ${codes(guide.hashes)}) made <span data-field="requests" data-value="${total}">${formatCount(total)}</span> requests to the legacy interface from <span title="${guide.from}">${dateInWords(guide.from)}</span> to <span title="${guide.to}">${dateInWords(guide.to)}</span> (from ${guide.sources.join(', ')}).</p>
<p id="api2-base-url" data-value="${guide.api2BaseUrl}">${api2Where(guide)}</p>
${guide.programs.length > 0 ? html`<p id="programs">Seen from: ${joinHtml(guide.programs.map((p) => html`<span data-program="${p.program}" data-value="${p.requests}">${p.program} (${formatCount(p.requests)} requests)</span>`), ', ')}.</p>` : ''}
<h2>Dates</h2><p id="dates">${notice.length > 0 ? html`The legacy interface: ${dates(notice)}.` : 'No date is set for the whole legacy interface; per operation dates, when set, are in the tables.'}</p>
<h2>Operations to move to api2</h2><table id="movable"><colgroup>${USAGE_COLUMNS}<col style="width:29%"><col style="width:25%"><col style="width:5%"></colgroup><thead><tr>${USAGE_HEADERS}<th>api2 request</th><th>fields lost, differences</th><th>dates</th></tr></thead><tbody>${guide.movable.map(movableRow)}</tbody></table>
<h2>Operations with no api2 equivalent yet</h2><table id="legacy-only"><colgroup>${USAGE_COLUMNS}<col style="width:54%"><col style="width:5%"></colgroup><thead><tr>${USAGE_HEADERS}<th>why</th><th>dates</th></tr></thead><tbody>${guide.legacyOnly.map(legacyOnlyRow)}</tbody></table>
${guide.uncatalogued > 0 ? html`<p class="muted">It also made ${formatCount(guide.uncatalogued)} calls no catalogued operation matches.</p>` : ''}`;
  // STYLE is a constant of this file, never data.
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Migration guide</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>${raw(STYLE)}</style></head><body>${body}</body></html>
`.toString();
}

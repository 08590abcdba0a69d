/**
 * The console's style, shared by its pages (/admin, /admin/operations/<id>): fits 1024 and 1280 px
 * without a horizontal scroll (wide tables of figures scroll inside their own box), and at 390 px
 * the overview's rows become cards. A constant: pages write it as it is.
 */
export const CONSOLE_STYLE = `
* { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; margin: 16px; color: #222; max-width: 1400px; }
h1 { font-size: 22px; margin: 0 0 4px; } h3 { font-size: 15px; } h2 { font-size: 17px; margin-top: 24px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { padding: 4px 7px; border-bottom: 1px solid #eee; text-align: left; vertical-align: top; overflow-wrap: break-word; }
th { white-space: nowrap; } td code { overflow-wrap: anywhere; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.scroll { overflow-x: auto; max-width: 100%; }
details > summary { cursor: pointer; color: #1565c0; margin: 8px 0; }
.muted { color: #666; } ul { margin: 0; padding-left: 18px; } code { font-size: 12px; }
#scope, #window { margin: 2px 0; }
.open { color: #c62828; font-weight: bold; }
table.overview { width: 100%; }
.overview td.op { font-weight: 600; white-space: nowrap; }
.state { font-weight: bold; }
.overview td[data-field="why"] { min-width: 180px; }
.state.done, .state.ready { color: #2e7d32; } .state.moving, .state.rolling-out { color: #1565c0; }
.state.held, .state.rolled-back, .state.paused { color: #c62828; } .state.stepped-back { color: #e65100; }
.state.waiting, .state.collecting, .state.no-evidence, .state.cannot-move { color: #555; }
.done, .ready { color: #2e7d32; font-weight: bold; } .held, .rolled-back, .paused { color: #c62828; font-weight: bold; } .cannot-move, .no-evidence { color: #666; font-weight: bold; } .rolling-out, .collecting { color: #1565c0; font-weight: bold; }
ol.way { list-style: none; display: flex; gap: 2px; margin: 0; padding: 0; white-space: nowrap; }
ol.way li { min-width: 24px; padding: 1px 3px; text-align: center; font-size: 12px; border: 1px solid #bbb; border-radius: 3px; color: #888; background: #fff; }
ol.way li[data-where="been"] { background: #e3f2fd; color: #1565c0; border-color: #90caf9; }
ol.way li[data-where="here"] { background: #1565c0; color: #fff; border-color: #1565c0; font-weight: bold; }
ol.way.back li[data-where="been"] { background: repeating-linear-gradient(135deg, #fff3e0, #fff3e0 3px, #ffe0b2 3px, #ffe0b2 6px); color: #e65100; border-color: #ffb74d; text-decoration: line-through; }
ol.way.back li[data-where="here"] { background: #e65100; border-color: #e65100; }
ol.way li[data-step="legacy"][data-where="here"] { background: #757575; border-color: #757575; }
ol.way.back li[data-step="legacy"][data-where="here"] { background: #c62828; border-color: #c62828; }
ol.way.unplanned li { border-style: dashed; }
form.act { display: inline; margin: 0; } form.act button { font: inherit; font-size: 13px; padding: 2px 10px; cursor: pointer; }
.next-text { font-size: 12px; color: #444; }
.share { font-size: 11px; color: #666; }
.bar { position: relative; height: 14px; width: 100%; min-width: 120px; background: #f5f5f5; border: 1px solid #ddd; }
.bar .tolerance { position: absolute; top: 0; bottom: 0; border-left: 2px solid #c62828; }
.bar .bounds { position: absolute; top: 3px; bottom: 3px; background: #1565c0; opacity: .55; min-width: 2px; }
.bar .point { position: absolute; top: 0; bottom: 0; border-left: 2px solid #222; }
@media (max-width: 700px) {
  body { margin: 8px; }
  table.overview thead { display: none; }
  table.overview, table.overview tbody, table.overview tr, table.overview td { display: block; width: 100%; }
  table.overview tr { border: 1px solid #ddd; border-radius: 4px; margin: 0 0 8px; padding: 4px; }
  table.overview td { border: none; padding: 2px 4px; text-align: left; }
  table.overview td[data-label]::before { content: attr(data-label) ": "; color: #666; font-weight: normal; }
}
`;

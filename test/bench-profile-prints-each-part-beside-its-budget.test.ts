/**
 * Issue 47: `npm run bench -- profile` on a HIT (gw-cache) and a pass-through (gw-legacy) prints
 * the gateway's own work part by part beside its budget (bench/budget.ts), the budgets summing to
 * 25 µs and 35 µs on the bench's machine and scaled by bare Hono measured in the same run; a
 * module of the request path belongs to the part that does its work. The full profile runs for
 * seconds under load: this checks the split, the sums and the printed table.
 */
import { describe, expect, it } from 'vitest';
import { OTHER_PART, PART_RULES, budgetedAs, partLines, partOfModule, partTable, totalBudget } from '../bench/budget.js';

describe('the budget per part', () => {
  it('sums to 25 µs on a HIT and 35 µs on a pass-through; a HIT has no upstream exchange to pay for', () => {
    expect(totalBudget('hit')).toBe(25);
    expect(totalBudget('pass-through')).toBe(35);
    expect(PART_RULES.find((rule) => rule.part === 'upstream exchange')?.budget.hit).toBe(0);
    expect(budgetedAs('gw-cache')).toBe('hit');
    expect(budgetedAs('gw-cache-nolog')).toBe('hit');
    expect(budgetedAs('gw-legacy')).toBe('pass-through');
    expect(budgetedAs('hono')).toBeUndefined();
  });

  it('puts each module of the request path in the part that does its work; helpers go to their caller', () => {
    const expected: Record<string, string | undefined> = {
      'node/listener': 'arrival and routing',
      'gateway/arrival': 'arrival and routing',
      'catalogue/route-table': 'arrival and routing',
      'pipeline/request-context': 'arrival and routing',
      'request/pairs': 'canonical request and key',
      'request/canonicalise': 'canonical request and key',
      'cache/page-key': 'canonical request and key',
      'cache/search-cache': 'page lookup',
      'pipeline/page-stage': 'page lookup',
      'upstream/undici-client': 'upstream exchange',
      'mappings/recipes-search': 'upstream exchange',
      'http/answer': 'answer writing',
      'observability/log-fields': 'usage line',
      'observability/node/usage-log': 'usage line',
      'gateway/request-record': 'usage line',
      'migration/live-tally': 'live counters and metrics',
      'observability/node/prometheus': 'live counters and metrics',
      'pipeline/deprecation-signal': 'deprecation and trace headers',
      'request/trace-context': 'deprecation and trace headers',
      'hot-path': undefined,
    };
    for (const [module, part] of Object.entries(expected)) expect(partOfModule(module), module).toBe(part);
  });

  it('prints every part beside its scaled budget, within or over, and the sum beside the whole', () => {
    const own = new Map([
      ['usage line', 12_000],
      ['page lookup', 2_000],
      [OTHER_PART, 100],
    ]);
    const scale = 0.5;
    const rows = partTable(own, 1000, 'hit', scale);
    expect(rows.map((row) => row.part)).toEqual([...PART_RULES.map((rule) => rule.part), OTHER_PART]);
    const lines = partLines(rows, 'hit', scale, 33.45);
    expect(lines[0]).toMatch(/cache HIT budget \(scaled 0\.50x: bare Hono 33\.5 µs\/request now/);
    expect(lines.find((line) => line.endsWith('usage line'))).toMatch(/^\s+12\.0 µs of\s+3\.0\s+OVER\s+usage line$/);
    expect(lines.find((line) => line.endsWith('page lookup'))).toMatch(/^\s+2\.0 µs of\s+1\.5\s+OVER\s+page lookup$/);
    expect(lines.find((line) => line.endsWith('answer writing'))).toMatch(/^\s+0\.0 µs of\s+1\.0\s+within\s+answer writing$/);
    expect(lines.at(-1)).toMatch(/^\s+14\.1 µs of\s+12\.5\s+OVER\s+sum of the parts$/);
    expect(partLines(partTable(own, 1000, undefined, 1), undefined, 1, undefined)[0]).toMatch(/no budget for this target/);
  });
});

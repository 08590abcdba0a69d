/**
 * Issue 46, times for people: a held operation's why in the console's rollout table named its
 * first failure as a machine time (`held since 2026-11-28T13:52:07.120Z by errorRate`; the demo's
 * test found it once, when a plan was held at the moment it read the page). The console writes each
 * such time as a person reads it, the machine time kept in the element's `datetime`.
 */
import { expect, it } from 'vitest';
import { timesInText } from '../src/display/time.js';

const NOW = Date.parse('2026-11-28T13:54:07.120Z');

it('writes every machine time in a why as a relative time with the date in its title, and escapes the rest', () => {
  const text = String(timesInText('held since 2026-11-28T13:52:07.120Z by errorRate <5> (to 2026-11-28T13:53:07Z)', NOW));
  expect(text).not.toMatch(/>[^<]*\d{4}-\d\d-\d\dT\d\d:\d\d/);
  expect(text).toContain('held since <time datetime="2026-11-28T13:52:07.120Z" title="28 Nov 2026, 13:52:07 UTC">2 min ago</time> by errorRate &lt;5&gt; (to <time');
  expect(String(timesInText('no time here', NOW))).toBe('no time here');
});

/**
 * Times for people (the console, the report's guide): "2 min ago" with the absolute time in a
 * title attribute, and dates in words ("28 Nov 2026, 01:37 UTC"). UTC always: the server renders
 * the page, and a reader's time zone is not known to it.
 */
import { html } from './html.js';
import type { Html } from './html.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (n: number): string => String(n).padStart(2, '0');

/** `28 Nov 2026, 01:37:09 UTC` (seconds with `seconds`), or `-` for a time that cannot be read. */
export function dateInWords(time: number | string, seconds = true): string {
  const ms = typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms)) return '-';
  const d = new Date(ms);
  const clock = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}${seconds ? `:${two(d.getUTCSeconds())}` : ''}`;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${clock} UTC`;
}

/** A span in the largest unit that keeps it readable: `45 s`, `12 min`, `3 h`, `2 days`. */
export function spanInWords(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 90) return `${min} min`;
  const h = Math.round(min / 60);
  if (h < 36) return `${h} h`;
  const days = Math.round(h / 24);
  return `${days} day${days === 1 ? '' : 's'}`;
}

/** `2 min ago`, `just now`, `in 30 s` (a time ahead of `nowMs`). */
export function relativeTime(time: number | string, nowMs: number): string {
  const ms = typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms)) return '-';
  const ago = nowMs - ms;
  if (Math.abs(ago) < 2_000) return 'just now';
  return ago > 0 ? `${spanInWords(ago)} ago` : `in ${spanInWords(-ago)}`;
}

/** `<time datetime="ISO" title="28 Nov 2026, 01:37:09 UTC">2 min ago</time>`. */
export function timeHtml(time: number | string, nowMs: number): Html {
  const ms = typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms)) return html`-`;
  return html`<time datetime="${new Date(ms).toISOString()}" title="${dateInWords(ms)}">${relativeTime(ms, nowMs)}</time>`;
}

/** A text with machine times in it (a judgement's detail: `held since 2026-11-28T01:37:09.993Z by …`), each as timeHtml; the rest escaped as it is. */
export function timesInText(text: string, nowMs: number): Html {
  const pieces: Array<Html | string> = [];
  let at = 0;
  for (const found of text.matchAll(/\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z/g)) {
    pieces.push(text.slice(at, found.index), timeHtml(found[0], nowMs));
    at = found.index + found[0].length;
  }
  pieces.push(text.slice(at));
  return html`${pieces}`;
}

/** A configured day or time in words: `2026-12-01` → `1 Dec 2026`; a date-time → `1 Dec 2026, 09:00 UTC`; text that is neither, as it is. */
export function dayInWords(text: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) return `${Number(day[3])} ${MONTHS[Number(day[2]) - 1] ?? day[2]} ${day[1]}`;
  const words = dateInWords(text, false);
  return words === '-' ? text : words;
}

/**
 * The deprecation signal: `Deprecation` (RFC 9745, `@<epoch seconds>`), `Sunset` (RFC 8594, an
 * IMF-fixdate) and `Link` (`rel="deprecation"`, `rel="sunset"`) on the answer to a catalogued
 * operation, as configured (src/config/deprecation.ts). Added by the request context to the answer
 * as it is sent, after the page cache: never stored in a page, so one client's headers never reach
 * another and a config change needs no cache flush. docs/deprecation.md has the rules.
 *
 * DECISION: every answer to a request routed to a signalled catalogued operation carries it,
 * whichever side answered and whatever the status (errors too: a client that only sees errors must
 * still be told); never an uncatalogued call or a request refused before routing.
 */
import type { OperationId } from '../catalogue/operations.js';
import { OPERATION_IDS } from '../catalogue/operations.js';
import { epochSecondsOf, noticeFor } from '../config/deprecation.js';
import type { DeprecationConfig, DeprecationNotice, DeprecationTold } from '../config/deprecation.js';
import type { Answer } from '../http/answer.js';
import { copyWith } from '../hot-path.js';

/** One operation's signal, its header values made once per config. */
export interface DeprecationSignal {
  readonly told: DeprecationTold;
  /** `deprecation` and `sunset` values (replacing an upstream's). */
  readonly fields: Readonly<Record<string, string>>;
  /** The link-values to add to `Link`, comma-separated; undefined without a configured page. */
  readonly link: string | undefined;
}

/** The signal of each operation under a config; undefined when no operation is signalled (the default). */
export function deprecationSignals(config: DeprecationConfig | undefined): ((operation: OperationId) => DeprecationSignal | undefined) | undefined {
  if (!config) return undefined;
  const signals = new Map<OperationId, DeprecationSignal>();
  for (const id of OPERATION_IDS) {
    const signal = signalOf(noticeFor(config, config.operations[id]));
    if (signal) signals.set(id, signal);
  }
  return signals.size === 0 ? undefined : (operation) => signals.get(operation);
}

/** RFC 9745 section 2.1: an sf-date, `@` and the integer seconds since the epoch. */
export const deprecationValue = (epochSeconds: number): string => `@${epochSeconds}`;

/** RFC 8594 section 3 / RFC 9110 section 5.6.7: the IMF-fixdate (`Wed, 30 Jun 2027 00:00:00 GMT`). */
export const sunsetValue = (epochSeconds: number): string => new Date(epochSeconds * 1000).toUTCString();

function signalOf(notice: DeprecationNotice): DeprecationSignal | undefined {
  const fields: Record<string, string> = {};
  const links: string[] = [];
  if (notice.deprecatedAt !== undefined) fields['deprecation'] = deprecationValue(epochSecondsOf(notice.deprecatedAt)!);
  if (notice.deprecationLink !== undefined) links.push(`<${notice.deprecationLink}>; rel="deprecation"`);
  if (notice.sunsetAt !== undefined) fields['sunset'] = sunsetValue(epochSecondsOf(notice.sunsetAt)!);
  if (notice.sunsetLink !== undefined) links.push(`<${notice.sunsetLink}>; rel="sunset"`);
  const deprecation = notice.deprecatedAt !== undefined || notice.deprecationLink !== undefined;
  const sunset = notice.sunsetAt !== undefined || notice.sunsetLink !== undefined;
  if (!deprecation && !sunset) return undefined;
  const told: DeprecationTold = deprecation && sunset ? 'deprecation+sunset' : deprecation ? 'deprecation' : 'sunset';
  return { told, fields, link: links.length > 0 ? links.join(', ') : undefined };
}

/**
 * The answer with the signal: `Deprecation` and `Sunset` set (an upstream's replaced: one value
 * each), the link-values appended to a `Link` the answer already has (as one more list member, or
 * one more field line when it came as several). Set in place unless the headers are shared (a
 * stored page's), as `withHeader` does.
 */
export function withDeprecationSignal(answered: Answer, signal: DeprecationSignal): Answer {
  const headers: Record<string, string> = answered.sharedHeaders ? copyWith(answered.headers, signal.fields) : Object.assign(answered.headers, signal.fields);
  let repeated = answered.repeated?.filter(([name]) => !(name in signal.fields));
  if (signal.link !== undefined) {
    const existing = headers['link'];
    if (existing !== undefined && existing.trim() !== '') headers['link'] = `${existing}, ${signal.link}`;
    else if (repeated?.some(([name]) => name === 'link')) repeated = [...repeated, ['link', signal.link]];
    else headers['link'] = signal.link;
  }
  if (!answered.sharedHeaders && answered.repeated === undefined && repeated === undefined) return answered;
  // A stored page's answer (a HIT) has no repeated fields: one copy, no rest pattern (~285 → ~200 ns in process, Node 20).
  if (answered.repeated === undefined && repeated === undefined) return copyWith(answered, { headers, sharedHeaders: false });
  const more = repeated === undefined || repeated.length === 0 ? { headers, sharedHeaders: false } : { headers, sharedHeaders: false, repeated };
  const { repeated: _dropped, ...rest } = answered;
  return copyWith(rest, more);
}

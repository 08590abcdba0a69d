/**
 * Config of the deprecation signal (`deprecation` key; off unless set): the dates and pages the
 * gateway announces to legacy clients in `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link`
 * headers, for every catalogued operation (`everyOperation`) and per operation (`operations.<id>`,
 * key by key over `everyOperation`). Every invalid date or link is refused naming its key.
 * docs/deprecation.md says what is sent, on which answers, and how it is logged.
 */
import { z } from 'zod';
import { OPERATION_IDS, isOperationId } from '../catalogue/operations.js';

/** `2027-06-30`, or an RFC 3339 date-time with its offset: `2027-06-30T12:00:00Z`, `…+02:00`. */
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Epoch seconds of a configured date, or undefined when it is not one. DECISION: a bare date is
 * midnight UTC; fractions of a second are refused (RFC 9745's Date is whole seconds); years
 * 1970-9999 (an HTTP-date has four digits of year).
 */
export function epochSecondsOf(text: string): number | undefined {
  const parts = DATE_TEXT.exec(text);
  if (!parts) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00'] = parts;
  const ms = Date.parse(parts[4] === undefined ? `${text}T00:00:00Z` : text);
  if (!Number.isFinite(ms) || Number(year) < 1970) return undefined;
  // Date.parse rolls 2027-02-30 over to March: the fields must read back as written (in UTC, offset applied).
  const offsetMs = offsetOf(parts[7]);
  const local = new Date(ms + offsetMs);
  const same = local.getUTCFullYear() === Number(year) && local.getUTCMonth() + 1 === Number(month) && local.getUTCDate() === Number(day)
    && local.getUTCHours() === Number(hour) && local.getUTCMinutes() === Number(minute) && local.getUTCSeconds() === Number(second);
  return same ? ms / 1000 : undefined;
}

function offsetOf(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
}

const date = z.string().refine((text) => epochSecondsOf(text) !== undefined, {
  message: 'must be a date (2027-06-30, midnight UTC) or an RFC 3339 date-time with its offset (2027-06-30T12:00:00Z), from 1970 to 9999, whole seconds',
});

/** Characters a URI may hold as written (RFC 3986): nothing that would end `<…>` in a Link header. */
const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})$/;

/** A link as it goes between `<` and `>`: an absolute http(s) URI, written with URI characters only, no credentials. */
export function linkProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http:// or https:// URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (user:password@): every client is sent it';
  const characters = text.match(/%..|./gsu) ?? [];
  if (!characters.every((c) => URI_CHARACTERS.test(c))) return 'must be written with URI characters only (RFC 3986: percent-encode spaces, quotes, <, > and non-ASCII)';
  return undefined;
}

const link = z.string().superRefine((text, ctx) => {
  const problem = linkProblem(text);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const NoticeSchema = z
  .object({
    /** Sent as `Deprecation: @<epoch seconds>` (RFC 9745). */
    deprecatedAt: date.optional(),
    /** Sent as `Sunset: <IMF-fixdate>` (RFC 8594). */
    sunsetAt: date.optional(),
    /** Sent as `Link: <url>; rel="deprecation"`. */
    deprecationLink: link.optional(),
    /** Sent as `Link: <url>; rel="sunset"`. */
    sunsetLink: link.optional(),
  })
  .strict();

export type DeprecationNotice = z.output<typeof NoticeSchema>;

export const DeprecationConfigSchema = z
  .object({
    /** For every catalogued operation. */
    everyOperation: NoticeSchema.optional(),
    /** Per operation id, key by key over `everyOperation`. */
    operations: z.record(z.string(), NoticeSchema).default({}),
  })
  .strict()
  .superRefine((config, ctx) => {
    for (const id of Object.keys(config.operations)) {
      if (!isOperationId(id)) ctx.addIssue({ code: 'custom', path: ['operations', id], message: `is not an operation id; known ids: ${OPERATION_IDS.join(', ')}` });
    }
    const places: Array<[Array<string>, DeprecationNotice]> = Object.entries(config.operations)
      .filter(([, own]) => own.deprecatedAt !== undefined || own.sunsetAt !== undefined)
      .map(([id, own]) => [['operations', id], noticeFor(config, own)]);
    if (config.everyOperation) places.unshift([['everyOperation'], config.everyOperation]);
    for (const [path, notice] of places) {
      const deprecated = notice.deprecatedAt === undefined ? undefined : epochSecondsOf(notice.deprecatedAt);
      const sunset = notice.sunsetAt === undefined ? undefined : epochSecondsOf(notice.sunsetAt);
      if (deprecated !== undefined && sunset !== undefined && sunset < deprecated) {
        ctx.addIssue({ code: 'custom', path: [...path, 'sunsetAt'], message: `must not be earlier than the deprecation date (${notice.deprecatedAt}): RFC 9745 section 3` });
      }
    }
  });

/** What a client was told, as its usage line says it (`deprecation`). */
export type DeprecationTold = 'deprecation' | 'sunset' | 'deprecation+sunset';

export type DeprecationConfig = z.output<typeof DeprecationConfigSchema>;

/** An operation's notice: its own keys over `everyOperation`'s. */
export function noticeFor(config: DeprecationConfig, own: DeprecationNotice | undefined): DeprecationNotice {
  return { ...config.everyOperation, ...own };
}

/**
 * HTML for the report's page and the live console, built with hono/html: every interpolated value
 * is escaped (& < > " ') unless it is itself built by `html` (or `raw`), so values that come from
 * client traffic (path templates, client labels, operation and mode names) can never open a tag or
 * leave an attribute.
 * Arrays are flattened; numbers are written as they are; null, undefined and booleans write nothing.
 */
import { html as honoHtml, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

export type Html = HtmlEscapedString;

/** hono/html's tagged template, synchronous (neither page ever interpolates a promise). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const built = honoHtml(strings, ...values);
  if (built instanceof Promise) throw new Error('HTML (report, console) must be built synchronously');
  return built;
}

/** Html pieces joined with a separator (the pieces are already escaped; the separator is escaped). */
export function joinHtml(pieces: readonly Html[], separator: string): Html {
  return html`${pieces.flatMap((piece, i) => (i === 0 ? [piece] : [separator, piece]))}`;
}

export { raw };

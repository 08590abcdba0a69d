/**
 * The grammars the deprecation headers are checked against, written from the RFCs (not from the
 * gateway's code): RFC 9651 sf-date (RFC 9745's `Deprecation`), RFC 9110 section 5.6.7 IMF-fixdate
 * (RFC 8594's `Sunset`) and RFC 8288 section 3 link-value (`Link`), with RFC 3986 URI-Reference
 * characters and RFC 9110 tokens and quoted-strings.
 */

/** RFC 9651 3.3.7: sf-date = "@" sf-integer; sf-integer = ["-"] 1*15DIGIT. The seconds, or undefined. */
export function sfDateSeconds(value: string): number | undefined {
  const match = /^@(-?[0-9]{1,15})$/.exec(value);
  return match ? Number(match[1]) : undefined;
}

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * RFC 9110 5.6.7: IMF-fixdate = day-name "," SP date1 SP time-of-day SP GMT; date1 = day SP month
 * SP year (2DIGIT, month name, 4DIGIT); time-of-day = hour ":" minute ":" second. The epoch
 * seconds, or undefined when the text is not one or names a day that is not the date's.
 */
export function imfFixdateSeconds(value: string): number | undefined {
  const match = /^([A-Z][a-z]{2}), ([0-9]{2}) ([A-Z][a-z]{2}) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$/.exec(value);
  if (!match) return undefined;
  const [, dayName, day, month, year, hour, minute, second] = match as unknown as string[];
  const monthIndex = MONTHS.indexOf(month!);
  if (!DAY_NAMES.includes(dayName!) || monthIndex < 0) return undefined;
  const ms = Date.UTC(Number(year), monthIndex, Number(day), Number(hour), Number(minute), Number(second));
  const date = new Date(ms);
  if (date.getUTCDate() !== Number(day) || date.getUTCHours() !== Number(hour) || Number(second) > 59 || Number(minute) > 59) return undefined;
  return DAY_NAMES[date.getUTCDay()] === dayName ? ms / 1000 : undefined;
}

export interface LinkValue {
  readonly uri: string;
  /** Parameter names lower-cased; values unquoted. */
  readonly params: Readonly<Record<string, string>>;
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const URI_CHAR = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;

/**
 * RFC 8288 3: Link = #link-value; link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param );
 * link-param = token BWS [ "=" BWS ( token / quoted-string ) ]. Throws naming the position of the
 * first character that breaks the grammar.
 */
export function parseLinkHeader(value: string): LinkValue[] {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`Link: ${what} at ${at} in ${JSON.stringify(value)}`);
  };
  const ows = (): void => {
    while (value[at] === ' ' || value[at] === '\t') at++;
  };
  const token = (): string => {
    const start = at;
    while (at < value.length && TCHAR.test(value[at]!)) at++;
    if (at === start) fail('a token expected');
    return value.slice(start, at);
  };
  const quoted = (): string => {
    at++;
    let text = '';
    for (; at < value.length && value[at] !== '"'; at++) {
      if (value[at] === '\\') at++;
      text += value[at];
    }
    if (value[at] !== '"') fail('an unterminated quoted-string');
    at++;
    return text;
  };
  const values: LinkValue[] = [];
  for (;;) {
    ows();
    if (value[at] !== '<') fail('"<" expected');
    const end = value.indexOf('>', at);
    if (end < 0) fail('">" expected');
    const uri = value.slice(at + 1, end);
    if (![...uri].every((c) => URI_CHAR.test(c))) fail('a character outside URI-Reference');
    at = end + 1;
    const params: Record<string, string> = {};
    for (;;) {
      ows();
      if (value[at] !== ';') break;
      at++;
      ows();
      const name = token().toLowerCase();
      ows();
      if (value[at] === '=') {
        at++;
        ows();
        params[name] = value[at] === '"' ? quoted() : token();
      } else params[name] = '';
    }
    values.push({ uri, params });
    if (at === value.length) return values;
    if (value[at] !== ',') fail('"," or the end expected');
    at++;
  }
}

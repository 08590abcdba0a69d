/**
 * api2's refusal in legacy's words. Both APIs word most refusals alike (ASP.NET's wording: a
 * recipe or review not found, a wrong password, paid-only parameters); where api2's differs, the
 * text legacy gives the same request is answered instead (src/legacy/refusal-words.ts).
 * DECISION: api2's message is read only to tell which refusal it is, never passed on where legacy
 * words it otherwise: an unknown key (api2 "unknown api key", legacy "unknown api_key").
 */
import { LEGACY_REFUSALS } from '../legacy/refusal-words.js';

const IN_OTHER_WORDS: ReadonlyArray<{ readonly statuses: readonly number[]; readonly api2: RegExp; readonly legacy: string }> = [
  { statuses: [401, 403], api2: /unknown api[ _-]?key/i, legacy: LEGACY_REFUSALS.unknownKey },
];

/** The message a legacy client is given for api2's refusal (`undefined`: api2 gave none). */
export function legacyWordsOf(status: number, api2Message: string | undefined): string | undefined {
  if (api2Message === undefined) return undefined;
  return IN_OTHER_WORDS.find((rule) => rule.statuses.includes(status) && rule.api2.test(api2Message))?.legacy ?? api2Message;
}

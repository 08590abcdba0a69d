/**
 * The scheme and host policy, case by case: the table of docs/hosts-and-schemes.md is generated
 * from these cases, and test/hosts-and-schemes-behave-as-documented.test.ts sends each case to a
 * real gateway under each `plainHttpCredentials` policy and checks the documented outcome.
 * Every case: legacyHosts ["api.bigoven.com"], GET /recipes?title_kw=soup&api_key=sandbox-free-key
 * (an api_key: credentials) unless the case says otherwise, https listener on port 8443 unless the
 * case says otherwise.
 */
export type Policy = 'allow' | 'redirect' | 'reject';
export const POLICIES: readonly Policy[] = ['allow', 'redirect', 'reject'];

/** `answered`: handled as any request (the operation's own status); else the gateway's refusal or redirect. */
export type Outcome = { readonly kind: 'answered' } | { readonly kind: 'refused'; readonly status: 403 | 421 } | { readonly kind: 'redirect'; readonly location: string };

export interface SchemeCase {
  /** How the request reaches the gateway, in words (docs). */
  readonly arrives: string;
  readonly tls: boolean;
  /** `X-Forwarded-Proto: https`, from a peer in trustedProxies or not. */
  readonly forwardedHttps?: 'trusted' | 'untrusted';
  /** Request target: origin-form `/recipes?…` (default), or absolute-form with this scheme and authority. */
  readonly absolute?: string;
  /** Host header (origin-form); `{gateway}` is the gateway's own address. */
  readonly host: string;
  readonly credentials: boolean;
  readonly acceptedHosts?: readonly string[];
  readonly httpsListener: boolean;
  readonly expected: Readonly<Record<Policy, Outcome>>;
}

export const QUERY = 'title_kw=soup&api_key=sandbox-free-key';
const answered: Outcome = { kind: 'answered' };
const forbidden: Outcome = { kind: 'refused', status: 403 };
const misdirected: Outcome = { kind: 'refused', status: 421 };
const to = (location: string): Outcome => ({ kind: 'redirect', location: `${location}/recipes?${QUERY}` });
const every = (outcome: Outcome): Record<Policy, Outcome> => ({ allow: outcome, redirect: outcome, reject: outcome });

export const SCHEME_CASES: readonly SchemeCase[] = [
  { arrives: 'TLS, on the https listener', tls: true, host: 'api.bigoven.com', credentials: true, httpsListener: true, expected: every(answered) },
  { arrives: 'plain http, `X-Forwarded-Proto: https` from a peer in `trustedProxies`', tls: false, forwardedHttps: 'trusted', host: 'api.bigoven.com', credentials: true, httpsListener: true, expected: every(answered) },
  { arrives: 'plain http, no credentials', tls: false, host: 'elsewhere.example', credentials: false, httpsListener: true, expected: every(answered) },
  { arrives: 'plain http, `Host: api.bigoven.com` (a legacy host)', tls: false, host: 'api.bigoven.com', credentials: true, httpsListener: true, expected: { allow: answered, redirect: to('https://api.bigoven.com:8443'), reject: forbidden } },
  { arrives: 'plain http, `Host: api.bigoven.com:8080` (the port of `Host` is dropped)', tls: false, host: 'api.bigoven.com:8080', credentials: true, httpsListener: true, expected: { allow: answered, redirect: to('https://api.bigoven.com:8443'), reject: forbidden } },
  { arrives: 'plain http, `X-Forwarded-Proto: https` from a peer not in `trustedProxies` (ignored)', tls: false, forwardedHttps: 'untrusted', host: 'api.bigoven.com', credentials: true, httpsListener: true, expected: { allow: answered, redirect: to('https://api.bigoven.com:8443'), reject: forbidden } },
  { arrives: 'plain http, `Host: gw.example.com`, listed in `acceptedHosts`', tls: false, host: 'gw.example.com', acceptedHosts: ['gw.example.com'], credentials: true, httpsListener: true, expected: { allow: answered, redirect: to('https://gw.example.com:8443'), reject: forbidden } },
  { arrives: 'plain http, `Host` not configured (`127.0.0.1:8080`), `acceptedHosts` unset', tls: false, host: '{gateway}', credentials: true, httpsListener: true, expected: { allow: answered, redirect: forbidden, reject: forbidden } },
  { arrives: 'plain http, `Host` not configured, `acceptedHosts` set', tls: false, host: 'elsewhere.example', acceptedHosts: ['gw.example.com'], credentials: true, httpsListener: true, expected: every(misdirected) },
  { arrives: 'plain http, absolute-form `GET http://api.bigoven.com/recipes?…` (the gateway as HTTP proxy: the redirect names port 443, see proxy-mode.md)', tls: false, absolute: 'http://api.bigoven.com', host: 'api.bigoven.com', credentials: true, httpsListener: true, expected: { allow: answered, redirect: to('https://api.bigoven.com'), reject: forbidden } },
  { arrives: 'plain http, absolute-form `GET https://api.bigoven.com/recipes?…` (the scheme written in the target does not count)', tls: false, absolute: 'https://api.bigoven.com', host: 'api.bigoven.com', credentials: true, httpsListener: true, expected: { allow: answered, redirect: to('https://api.bigoven.com'), reject: forbidden } },
  { arrives: 'plain http, absolute-form `GET http://api.bigoven.com/recipes?…`, no https listener (`listen.https` unset)', tls: false, absolute: 'http://api.bigoven.com', host: 'api.bigoven.com', credentials: true, httpsListener: false, expected: { allow: answered, redirect: forbidden, reject: forbidden } },
  { arrives: 'plain http, absolute-form naming another host (`GET http://elsewhere.example/recipes?…`)', tls: false, absolute: 'http://elsewhere.example', host: 'elsewhere.example', credentials: true, httpsListener: true, expected: every(misdirected) },
  { arrives: 'plain http, `Host: api.bigoven.com`, no https listener (`listen.https` unset)', tls: false, host: 'api.bigoven.com', credentials: true, httpsListener: false, expected: { allow: answered, redirect: to('https://api.bigoven.com'), reject: forbidden } },
];

function cell(outcome: Outcome): string {
  if (outcome.kind === 'answered') return 'answered';
  if (outcome.kind === 'refused') return outcome.status === 403 ? '**403** `insecure-credentials`' : '**421** `misdirected`';
  return `**308** to \`${outcome.location.replace(`?${QUERY}`, '?…')}\``;
}

export function schemeCasesMarkdown(): string {
  const lines = ['| the request arrives | `allow` (default) | `redirect` | `reject` |', '|---|---|---|---|'];
  for (const c of SCHEME_CASES) lines.push(`| ${c.arrives} | ${cell(c.expected.allow)} | ${cell(c.expected.redirect)} | ${cell(c.expected.reject)} |`);
  return lines.join('\n');
}

/**
 * The two closed sets the legacy answer policy (answer-policy.ts) is given its terms in: which
 * Cache-Control an operation's success carries (each catalogue entry's `answer.cacheControl`), and
 * the content coding the request negotiated (src/request/encoding.ts).
 */

/**
 * The Cache-Control the legacy backend sends with a success (so the sandbox, and the gateway when
 * it answers from api2):
 * `public`: `public, max-age=60` when asked without a user, `no-store` with one (IsBookmark is per user);
 * `revalidate`: `no-cache` (revalidate by ETag); `private`: `no-store`.
 */
export type LegacyCacheControl = 'public' | 'revalidate' | 'private';

/** The content codings the legacy backend answers in, and so the only ones the gateway keys and forwards. */
export type ContentCoding = 'gzip' | 'identity';

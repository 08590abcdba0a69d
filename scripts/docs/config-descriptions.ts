/**
 * What each config key means, for docs/configuration.md (types, ranges and defaults come from the
 * zod schema itself). A `*` segment matches any name (`upstreams.*.caFile`). A key the schema has
 * and this table lacks fails test/docs-are-generated-and-current.test.ts, naming the key.
 */
export const CONFIG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'listen.host': 'address of the listeners',
  'listen.port': 'plain HTTP port (`PORT` env overrides)',
  'listen.https.port': 'TLS port: with `listen.https` set the gateway also listens with TLS',
  'listen.https.certFile': 'PEM certificate file of the TLS listener (must be readable at start, else exit 1)',
  'listen.https.keyFile': 'PEM key file of the TLS listener (must be readable at start, else exit 1)',
  'upstreams.*.baseUrl': '`http(s)://host:port[/base]` of the backend; no query, fragment or credentials. `upstreams.legacy` is required; `upstreams.api2` is required once a route calls api2, and https only',
  'upstreams.*.connections': 'pooled keep-alive connections',
  'upstreams.*.keepAliveTimeoutMs': "idle socket lifetime; keep it below the backend's",
  'upstreams.*.caFile': 'PEM CA file to trust for an https upstream (verification is never turned off)',
  'api2.noPhotoImageUrl': 'ImageURL/HeroPhotoUrl for a recipe api2 sends without a photo',
  legacyHosts: 'host names of the legacy service, accepted in absolute-form targets and `Host` (see hosts-and-schemes.md)',
  acceptedHosts: 'when set, `Host` must be a legacy host or one of these (else 421); when absent any `Host` is served',
  trustedProxies: 'addresses or IPv4 CIDRs whose `X-Forwarded-Proto/-For` are believed',
  plainHttpCredentials: 'credentials over plain http: `allow`, `redirect` (308 to https, for a configured host only; 403 otherwise) or `reject` (403); see hosts-and-schemes.md',
  uncatalogued: 'requests that match no operation: `pass` to the legacy backend, or `reject` with 404',
  unknownParameters: 'a parameter a catalogued operation does not take: `drop` (never forwarded, never keyed) or `reject` (400 naming it)',
  'timeouts.defaultMs': 'whole-exchange upstream deadline',
  'routes.*.mode': '`legacy` (pass-through), `api2` (mapped), `canary` or `shadow` (traffic-control.md); api2 modes are refused for the four legacy-only operations',
  'routes.*.timeoutMs': 'per-operation deadline (default: `timeouts.defaultMs`)',
  'routes.*.cache.ttlMs': 'search only (`routes["recipes.search"].cache`): a stored page is fresh this long (HIT)',
  'routes.*.cache.staleWhileRevalidateMs': 'search only: then served stale this long while one background call refreshes it',
  'routes.*.cache.staleIfErrorMs': 'search only: served stale this long when the upstream fails or answers 5xx',
  'routes.*.canaryPercent': 'canary: share of clients sent to api2, 0-100 (required in canary mode)',
  'routes.*.fallback': 'api2 or canary: a safe operation whose api2 call fails is answered by legacy',
  'routes.*.shadow.sampleRate': 'shadow: share of safe requests compared',
  'routes.*.shadow.ignore': 'shadow: legacy field paths never compared (`Results[].StarRating`)',
  'traffic.forceHeader': 'header that forces a canary route to `legacy` or `api2` (testing); off unless named',
  'traffic.shadow.maxConcurrent': 'shadow comparisons at once; past it a sample is skipped and counted',
  'traffic.shadow.timeoutMs': 'deadline of a shadow api2 call',
  'traffic.shadow.measureNoise': 'second legacy call to tell noise from mapping faults',
  'traffic.breakers.*.enabled': 'circuit breaker of that upstream (api2 on, legacy off by default)',
  'traffic.breakers.*.failureThreshold': 'consecutive failures (thrown exchanges, 502/503/504) that open it',
  'traffic.breakers.*.openMs': 'how long it stays open before one half-open probe',
  'cache.redis.url': '`redis://[:password@]host:port[/db]` or `rediss://` of the shared tier behind the per-process cache (docs/fleet.md); shown redacted',
  'cache.redis.required': 'when true, /readyz answers 503 while Redis is out (requests are still served, from L1 and the upstream)',
  'cache.redis.keyPrefix': 'prefix of every key and channel (several gateways may share one Redis)',
  'cache.redis.hashKey': 'shared secret (16+ characters) the replicas hash api keys and credentials with; `observability.hashKey` when absent',
  'cache.redis.commandTimeoutMs': 'a command slower than this counts as Redis being out (L1 only until it answers again)',
  'cache.redis.connectTimeoutMs': 'connection timeout to Redis',
  'cache.redis.retryMs': 'how often an out Redis is probed',
  'cache.redis.lockTtlMs': "a single-flight lock's life: the longest a replica that died holding it can delay a page",
  'cache.redis.maxEntryBytes': "larger pages stay in L1 only; Redis's own `maxmemory` (allkeys-lru) bounds the total",
  'cache.edgeCacheApi': 'on the edge (workerd): the Workers Cache API as the shared tier of a data centre\'s isolates',
  'limits.readyDelayMs': 'SIGTERM/SIGINT: how long /readyz answers 503 while the listener still serves, before the drain (load balancers notice)',
  workers: 'gateway processes (node:cluster workers sharing the listeners, each with its own pools and cache): a number, or `auto` for one per core; 1 by default (the container case: the orchestrator scales)',
  'cache.enabled': 'the search page cache',
  'cache.maxEntries': 'entry bound',
  'cache.maxBytes': 'byte bound (stored bytes, headers and keys)',
  'cache.honorClientNoCache': '`Cache-Control: no-cache` from a client bypasses the stored page',
  'cache.keyKnowledgeTtlMs': 'how long an api key answered 200 may read stored pages',
  'observability.log.enabled': 'one usage-log line per request',
  'observability.log.level': '`warn` keeps only 5xx',
  'observability.log.destination': '`stdout`, `stderr` or a file path (appended); `npm start` then prints its own lines on stdout',
  'observability.hashKey': 'key of the client/user hashes (`GATEWAY_HASH_KEY` overrides); random per start when absent',
  'observability.instance': 'the `instance` field of every usage-log line; default HOSTNAME / POD_NAME, else hostname:pid (one id per isolate on the edge)',
  'observability.clientLabels': 'client hash (16 hex digits, as logged) → label',
  'observability.metrics.enabled': 'the Prometheus endpoint',
  'observability.metrics.path': "its path; must not be an operation's or `/healthz`",
  'observability.admin.bearerToken': 'required by every admin view when set (`Authorization: Bearer …`); `GATEWAY_ADMIN_TOKEN` sets it',
  'observability.admin.bearerTokenFile': 'a file holding the token (a mounted Secret), read at start; instead of `bearerToken`',
  'observability.admin.openMetrics': 'the metrics path answers without the token (scrapers that cannot send one); the other admin views still need it',
  'observability.admin.listen.host': 'address of a separate admin listener (metrics, admin views)',
  'observability.admin.listen.port': 'its port (sandbox: `ADMIN_PORT`, default a free one)',
  'limits.maxRequestBodyBytes': 'larger bodies get 413 (a chunked body is read no further than the limit)',
  'limits.maxResponseBodyBytes': 'larger upstream answers get 502',
  'limits.maxUrlLength': 'longer targets get 414 (must stay under `maxHeaderBytes`)',
  'limits.maxHeaderBytes': 'request line and headers; larger get 431',
  'limits.headersTimeoutMs': 'headers not complete in time get 408 (slowloris)',
  'limits.requestTimeoutMs': 'a whole request not received in time gets 408',
  'limits.clientKeepAliveTimeoutMs': 'idle client connection lifetime',
  'limits.shutdownGraceMs': 'SIGTERM/SIGINT drain deadline',
};

/** The description of a key, `*` segments matching any name; undefined when there is none. */
export function describeKey(key: string): string | undefined {
  const exact = CONFIG_DESCRIPTIONS[key];
  if (exact !== undefined) return exact;
  const segments = key.split('.');
  for (const [pattern, text] of Object.entries(CONFIG_DESCRIPTIONS)) {
    const parts = pattern.split('.');
    if (parts.length === segments.length && parts.every((part, i) => part === '*' || part === segments[i])) return text;
  }
  return undefined;
}

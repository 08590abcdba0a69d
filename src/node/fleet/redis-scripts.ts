/**
 * Node-only: the Lua scripts of the Redis tier, run atomically by Redis.
 *
 * Fences are Redis's own clock in microseconds (TIME), 16 digits: monotonic across replicas and
 * across a FLUSHALL (a counter would restart at 1 and lose to a zombie's old fence).
 */
const NOW_FENCE_FUNCTION = `local function now_fence()
  local t = redis.call('TIME')
  return string.format('%016.0f', tonumber(t[1]) * 1000000 + tonumber(t[2]))
end`;

/** KEYS: lock. ARGV: token, ttl ms. Returns the fence, or false when another replica holds it. */
export const LOCK_SCRIPT = `${NOW_FENCE_FUNCTION}
local fence = now_fence()
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return fence end
return false`;

/** KEYS: lock. ARGV: token. Deletes the lock only if it is still ours. */
export const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * KEYS: entry. ARGV: entry bytes without fence, ttl ms, fence ('' for a new one).
 * Refuses (0) when the stored entry carries a newer fence: a late holder never overwrites a newer page.
 */
export const STORE_SCRIPT = `${NOW_FENCE_FUNCTION}
local fence = ARGV[3]
if fence == '' then fence = now_fence() end
local current = redis.call('GETRANGE', KEYS[1], 0, 15)
if current ~= '' and current > fence then return 0 end
redis.call('SET', KEYS[1], fence .. ARGV[1], 'PX', ARGV[2])
return 1`;

/**
 * KEYS: generation. ARGV: channel, message, expiry ms (0: none). Moves the generation past both its
 * value and Redis's clock (so it never comes back to a value an entry or an L1 copy was filled
 * under, even after a FLUSHALL or an expiry), then tells every replica. Returns the new generation.
 */
export const INVALIDATE_SCRIPT = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local current = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local generation = string.format('%.0f', math.max(current + 1, now))
if tonumber(ARGV[3]) > 0 then redis.call('SET', KEYS[1], generation, 'PX', ARGV[3]) else redis.call('SET', KEYS[1], generation) end
redis.call('PUBLISH', ARGV[1], ARGV[2])
return generation`;

-- Points the API at a new read-model version, only for the holder of the rebuild lock: a rebuild
-- that lost its lock (expired while it was paused, taken by a newer rebuild) cannot flip the
-- pointer back to its older build. The lock key is hash-tagged to the pointer's slot.
-- KEYS[1] the rebuild lock, KEYS[2] the active pointer. ARGV[1] our token, ARGV[2] the new value.
-- Returns false when the lock is not ours, else the pointer's previous value ('' when none).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
local previous = redis.call('GET', KEYS[2])
redis.call('SET', KEYS[2], ARGV[2])
return previous or ''

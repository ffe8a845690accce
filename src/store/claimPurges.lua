-- Takes up to ARGV[3] purges of one partition's outbox for a drainer (src/edge/purgeOutbox.ts):
-- first puts back the claims whose time ran out (their drainer died, or its retry is due), then
-- moves the oldest queued purges to the claimed set until ARGV[2]. A claim is removed only once
-- the edge accepted it; a change queued meanwhile is a new entry, never lost with the claim.
-- KEYS[1] queued (member 'h:<key>' or 's:<key>', score: first queued, ms), KEYS[2] claimed
-- (member '<queued ms>|<queued member>', score: when it may be taken again, ms).
-- ARGV[1] now (ms), ARGV[2] the claim's end (ms), ARGV[3] how many.
-- Returns the claimed members.
local now, claimEnd, limit = ARGV[1], ARGV[2], tonumber(ARGV[3])
local due = redis.call('ZRANGE', KEYS[2], '-inf', now, 'BYSCORE', 'LIMIT', 0, limit)
for _, claimed in ipairs(due) do
  local bar = string.find(claimed, '|', 1, true)
  redis.call('ZREM', KEYS[2], claimed)
  redis.call('ZADD', KEYS[1], 'LT', string.sub(claimed, 1, bar - 1), string.sub(claimed, bar + 1))
end
local queued = redis.call('ZRANGE', KEYS[1], 0, limit - 1, 'WITHSCORES')
local out = {}
for i = 1, #queued, 2 do
  local claimed = queued[i + 1] .. '|' .. queued[i]
  redis.call('ZREM', KEYS[1], queued[i])
  redis.call('ZADD', KEYS[2], claimEnd, claimed)
  out[#out + 1] = claimed
end
return out

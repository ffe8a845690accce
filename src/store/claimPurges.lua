-- Takes up to ARGV[3] purges of one partition's outbox for a drainer (src/edge/purgeOutbox.ts):
-- first puts back the claims of drainers known dead (ARGV[5...]: their heartbeat is gone) and the
-- claims whose time ran out (a drainer that stopped beating without dying, or a retry fallen due),
-- then moves the oldest queued purges to the claimed set until ARGV[2], owned by ARGV[4]. A claim
-- is removed only once the edge accepted it; a change queued meanwhile is a new entry, never lost
-- with the claim.
-- KEYS[1] queued (member 'h:<key>' or 's:<key>', score: first queued, ms), KEYS[2] claimed
-- (member '<queued ms>|<queued member>', score: when it may be taken again, ms), KEYS[3] owners
-- (hash: claimed member -> drainer id).
-- ARGV[1] now (ms), ARGV[2] the claim's end (ms), ARGV[3] how many, ARGV[4] the drainer's id,
-- ARGV[5...] ids of dead drainers.
-- Returns the claimed members.
local now, claimEnd, limit, owner = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]

local function putBack(claimed)
  redis.call('HDEL', KEYS[3], claimed)
  -- An owner entry whose claim is gone (accepted meanwhile, or taken back by a lease) is only dropped.
  if redis.call('ZREM', KEYS[2], claimed) == 1 then
    local bar = string.find(claimed, '|', 1, true)
    redis.call('ZADD', KEYS[1], 'LT', string.sub(claimed, 1, bar - 1), string.sub(claimed, bar + 1))
  end
end

if #ARGV > 4 then
  local dead = {}
  for i = 5, #ARGV do dead[ARGV[i]] = true end
  local owners = redis.call('HGETALL', KEYS[3])
  for i = 1, #owners, 2 do
    if dead[owners[i + 1]] then putBack(owners[i]) end
  end
end
for _, claimed in ipairs(redis.call('ZRANGE', KEYS[2], '-inf', now, 'BYSCORE', 'LIMIT', 0, limit)) do
  putBack(claimed)
end
local queued = redis.call('ZRANGE', KEYS[1], 0, limit - 1, 'WITHSCORES')
local out = {}
for i = 1, #queued, 2 do
  local claimed = queued[i + 1] .. '|' .. queued[i]
  -- The same key queued again in the millisecond of a claim still in flight would take that
  -- claim's name, and the first acceptance would drop both: it waits until that claim is settled.
  if not redis.call('ZSCORE', KEYS[2], claimed) then
    redis.call('ZREM', KEYS[1], queued[i])
    redis.call('ZADD', KEYS[2], claimEnd, claimed)
    redis.call('HSET', KEYS[3], claimed, owner)
    out[#out + 1] = claimed
  end
end
return out

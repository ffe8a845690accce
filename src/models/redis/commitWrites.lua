-- Applies a batch's (or a render's) writes and moves the partition's checkpoint, atomically and
-- only while the checkpoint still holds the value the runner started from: a zombie or retried
-- job whose partition moved on writes nothing. A missing checkpoint never matches, so a retired
-- version cannot be written into again.
-- KEYS[1] the checkpoint, KEYS[2..] every key the writes touch.
-- ARGV[1] expected checkpoint, ARGV[2] new checkpoint ('' keeps it), ARGV[3] the writes as a JSON
-- array of [verb, key index, args...] ([verb, key index...] for DEL), encoded by encodeWrites.ts.
local current = redis.call('GET', KEYS[1])
if current ~= ARGV[1] then return 0 end
local writes = cjson.decode(ARGV[3])

local plain = { SET = true, HSET = true, HDEL = true, HINCRBY = true, EXPIRE = true, ZADD = true,
  ZREM = true, ZREMRANGEBYSCORE = true, ZKEEPFROM = true, SADD = true, SREM = true, DEL = true,
  HSETVERSIONED = true, PUBLISH = true }
-- Check everything before the first write: a malformed write must not leave half a commit.
for i = 1, #writes do
  local w = writes[i]
  if not plain[w[1]] then return redis.error_reply('unknown write ' .. tostring(w[1])) end
  local last = (w[1] == 'DEL' and #w) or (w[1] == 'PUBLISH' and 1) or 2
  for j = 2, last do
    if KEYS[w[j]] == nil then return redis.error_reply('write ' .. i .. ' names an undeclared key') end
  end
end

for i = 1, #writes do
  local w = writes[i]
  local verb = w[1]
  if verb == 'DEL' then
    local keys = {}
    for j = 2, #w do keys[#keys + 1] = KEYS[w[j]] end
    redis.call('DEL', unpack(keys))
  elseif verb == 'HSETVERSIONED' then
    -- [verb, key, channel, message, unchanged message, at least, field, value, ...]: see writeOps.ts
    local key = KEYS[w[2]]
    local rev = nil
    for j = 7, #w, 2 do
      if redis.call('HGET', key, w[j]) ~= w[j + 1] then
        if rev == nil then
          local last = tonumber(redis.call('HGET', key, 'rev') or '0')
          rev = string.format('%.0f', math.max(last + 1, tonumber(w[6])))
        end
        redis.call('HSET', key, w[j], w[j + 1], w[j] .. ':rev', rev)
      end
    end
    if rev ~= nil then
      redis.call('HSET', key, 'rev', rev)
      redis.call('PUBLISH', w[3], w[4])
    elseif w[5] ~= '' then
      redis.call('PUBLISH', w[3], w[5])
    end
  elseif verb == 'PUBLISH' then
    redis.call('PUBLISH', w[2], w[3])
  elseif verb == 'ZKEEPFROM' then
    local key = KEYS[w[2]]
    local older = redis.call('ZREVRANGEBYSCORE', key, '(' .. w[3], '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
    if #older == 2 then redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. older[2]) end
  else
    w[2] = KEYS[w[2]]
    redis.call(unpack(w))
  end
end
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2]) end
return 1

-- Applies a batch's (or a render's) writes and moves the partition's checkpoint, atomically and
-- only while the checkpoint still holds the value the runner started from: a zombie or retried
-- job whose partition moved on writes nothing. A missing checkpoint never matches, so a retired
-- version cannot be written into again.
-- KEYS[1] the checkpoint, KEYS[2..] every key the writes touch.
-- ARGV[1] expected checkpoint, ARGV[2] new checkpoint ('' keeps it), ARGV[3] the writes as a JSON
-- array of [verb, key index, args...] ([verb, key index...] for DEL), encoded by encodeWrites.ts;
-- ARGV[4..] long values, which a SET, HSET or HSETVERSIONED value names by its number n (ARGV[3 + n]).
local current = redis.call('GET', KEYS[1])
if current ~= ARGV[1] then return 0 end
local writes = cjson.decode(ARGV[3])

local plain = { SET = true, HSET = true, HDEL = true, HINCRBY = true, EXPIRE = true, ZADD = true,
  ZREM = true, ZREMRANGEBYSCORE = true, ZKEEPFROM = true, SADD = true, SREM = true, DEL = true,
  HSETVERSIONED = true, PUBLISH = true, SUMMARIZEDOWN = true }
local dayMs = 86400000
local value = function(v) if type(v) == 'number' then return ARGV[3 + v] end return v end
local int = function(n) return string.format('%d', n) end
-- Check everything before the first write: a malformed write must not leave half a commit.
for i = 1, #writes do
  local w = writes[i]
  if not plain[w[1]] then return redis.error_reply('unknown write ' .. tostring(w[1])) end
  local last = ((w[1] == 'DEL' or w[1] == 'ZKEEPFROM') and #w) or (w[1] == 'PUBLISH' and 1)
    or (w[1] == 'SUMMARIZEDOWN' and 3) or 2
  for j = 2, last do
    -- ZKEEPFROM's third item is its cutoff, not a key.
    if not (w[1] == 'ZKEEPFROM' and j == 3) and KEYS[w[j]] == nil then
      return redis.error_reply('write ' .. i .. ' names an undeclared key')
    end
  end
end

for i = 1, #writes do
  local w = writes[i]
  local verb = w[1]
  if verb == 'SET' then w[3] = value(w[3])
  elseif verb == 'HSET' then for j = 4, #w, 2 do w[j] = value(w[j]) end
  elseif verb == 'HSETVERSIONED' then for j = 8, #w, 2 do w[j] = value(w[j]) end end
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
  elseif verb == 'SUMMARIZEDOWN' then
    -- [verb, failures key, summary key, first day, last day]: see writeOps.ts. Failures are
    -- disjoint, so only the latest one starting before the first day can reach into it.
    local down, summary = KEYS[w[2]], KEYS[w[3]]
    local first, last = tonumber(w[4]), tonumber(w[5])
    local members = redis.call('ZREVRANGEBYSCORE', down, '(' .. int(first * dayMs), '-inf', 'LIMIT', 0, 1)
    local inside = redis.call('ZRANGEBYSCORE', down, int(first * dayMs), '(' .. int((last + 1) * dayMs))
    for j = 1, #inside do members[#members + 1] = inside[j] end
    local days = {}
    for j = 1, #members do
      local s, e = string.match(members[j], '^(%d+):(%d+)$')
      s, e = tonumber(s), tonumber(e)
      for d = math.max(first, math.floor(s / dayMs)), math.min(last, math.floor((e - 1) / dayMs)) do
        local day = days[d] or { ms = 0, starts = 0, first = 0 }
        day.ms = day.ms + math.min(e, (d + 1) * dayMs) - math.max(s, d * dayMs)
        if s >= d * dayMs then
          if day.starts == 0 or s < day.first then day.first = s end
          day.starts = day.starts + 1
        end
        days[d] = day
      end
    end
    redis.call('ZREMRANGEBYSCORE', summary, first, last)
    for d, day in pairs(days) do
      redis.call('ZADD', summary, d, int(d) .. ':' .. int(day.ms) .. ':' .. int(day.starts) .. ':' .. int(day.first))
    end
  elseif verb == 'ZKEEPFROM' then
    -- [verb, into, cutoff, from...]: see writeOps.ts
    local into = KEYS[w[2]]
    local below = '(' .. w[3]
    local newest, newestScore = nil, nil
    for j = 2, #w do
      if j ~= 3 then
        local older = redis.call('ZREVRANGEBYSCORE', KEYS[w[j]], below, '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
        if #older == 2 and (newest == nil or tonumber(older[2]) > newest) then
          newest, newestScore = tonumber(older[2]), older[2]
        end
      end
    end
    if newest ~= nil then
      for j = 4, #w do
        local from = KEYS[w[j]]
        local kept = redis.call('ZRANGEBYSCORE', from, newestScore, newestScore, 'WITHSCORES')
        for m = 1, #kept, 2 do redis.call('ZADD', into, kept[m + 1], kept[m]) end
        redis.call('ZREMRANGEBYSCORE', from, '-inf', below)
      end
      redis.call('ZREMRANGEBYSCORE', into, '-inf', '(' .. newestScore)
    end
  else
    w[2] = KEYS[w[2]]
    redis.call(unpack(w))
  end
end
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2]) end
return 1

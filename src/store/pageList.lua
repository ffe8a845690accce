-- One round trip for a list page: the page's access document, the list's size, one slice of its
-- ids and their documents. All keys of a page share a hash tag, so the script stays in one slot.
-- KEYS: access, zset, docs hash. ARGV: start, stop (ZRANGE indices). Without ARGV only access is read.
local access = redis.call('GET', KEYS[1])
if not access or #ARGV == 0 then return {access} end
local total = redis.call('ZCARD', KEYS[2])
local ids = redis.call('ZRANGE', KEYS[2], ARGV[1], ARGV[2])
local out = {access, total}
for i = 1, #ids, 500 do
  local docs = redis.call('HMGET', KEYS[3], unpack(ids, i, math.min(i + 499, #ids)))
  for j = 1, #docs do out[#out + 1] = docs[j] end
end
return out

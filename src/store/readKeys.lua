-- Reads of one partition's keys in one call: a batch's inputs are dozens of small reads, and one
-- script costs the client far less than as many pipelined commands (docs/architecture.md).
-- KEYS[i] the key of the i-th read; ARGV: per read, its command, its count of further arguments,
-- then those arguments. Replies come back in order; a missing value is nil. Only reads run.
local reads = { get = true, hgetall = true, hmget = true, hkeys = true, hlen = true, exists = true,
  smembers = true, sismember = true, zcard = true, zcount = true, zscore = true, zrangebyscore = true,
  zrevrangebyscore = true }
local out = {}
local at = 1
for i = 1, #KEYS do
  local command = ARGV[at]
  if not reads[command] then return redis.error_reply('not a read: ' .. tostring(command)) end
  local count = tonumber(ARGV[at + 1])
  out[i] = redis.call(command, KEYS[i], unpack(ARGV, at + 2, at + 1 + count))
  at = at + 2 + count
end
return out

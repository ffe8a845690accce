-- One presented private-page token from one client, decided in one step so that concurrent
-- guesses from any number of API processes are counted exactly: while the client's wrong tokens
-- fill the window, refused (returns the window's milliseconds left, at least 1); otherwise
-- counted when wrong (the window starts with the first) and let through (returns 0).
-- KEYS[1] the client's counter for the page; ARGV[1] max failures, ARGV[2] window ms,
-- ARGV[3] '1' for a wrong token.
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
if failures >= tonumber(ARGV[1]) then
  local left = redis.call('PTTL', KEYS[1])
  if left > 0 then return left end
  redis.call('PEXPIRE', KEYS[1], ARGV[2]) -- a counter never lacks its expiry; repaired if it did
  return tonumber(ARGV[2])
end
if ARGV[3] == '1' and redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0

-- Extends a lock only while it still holds our token: a holder whose lock expired (a long pause,
-- a frozen Redis) and was taken by another process must not extend the new holder's lock.
-- KEYS[1] the lock, ARGV[1] our token, ARGV[2] the new time to live in ms.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0

-- Deletes a lock only while it still holds our token (compare-and-delete): a lock that expired
-- and was taken by another process is not ours to release.
-- KEYS[1] the lock, ARGV[1] our token.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0

-- A dead letter is recorded before the batch that skips its event commits to Redis, so a crash
-- between the two cannot lose it; a batch projected again after such a crash records it again,
-- which this index turns into a no-op (INSERT … ON CONFLICT DO NOTHING).
DELETE FROM dead_letters d USING dead_letters e
WHERE d.projection = e.projection AND d.position = e.position AND d.id > e.id;
CREATE UNIQUE INDEX dead_letters_once ON dead_letters (projection, position);

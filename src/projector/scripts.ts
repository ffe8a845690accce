// Lua scripts of the projector. Every write of a batch or a render is applied only while the
// partition's checkpoint still holds the value the runner started from: a zombie or retried job
// whose partition moved on writes nothing (design notes §2). A missing checkpoint never matches,
// so a retired version cannot be written into again.
import type { Redis } from 'ioredis';

// KEYS[1] checkpoint; ARGV[1] expected, ARGV[2] new checkpoint ('' keeps it), ARGV[3..] commands.
// TRIMBEFORE key cutoff: drop members scored below cutoff except the newest of them (the
// anchor a late check may need).
const commitLua = `
local current = redis.call('GET', KEYS[1])
if current ~= ARGV[1] then return 0 end
local i = 3
while i <= #ARGV do
  local argc = tonumber(ARGV[i])
  local cmd = ARGV[i + 1]
  if cmd == 'TRIMBEFORE' then
    local key, cutoff = ARGV[i + 2], ARGV[i + 3]
    local older = redis.call('ZREVRANGEBYSCORE', key, '(' .. cutoff, '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
    if #older == 2 then redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. older[2]) end
  else
    redis.call(unpack(ARGV, i + 1, i + argc))
  end
  i = i + argc + 1
end
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2]) end
return 1
`;

type WithCommit = { projectorCommit: (checkpointKey: string, ...args: (string | number)[]) => Promise<number> };

/**
 * Applies `args` (encodeCommands output) and moves the checkpoint from `expected` to `next`
 * ('' keeps it) in one atomic step. Returns false when the checkpoint was not `expected`.
 */
export const commitIfCheckpoint = async (
  redis: Redis,
  checkpointKey: string,
  expected: string,
  next: string,
  args: (string | number)[],
): Promise<boolean> => {
  const client = redis as Redis & Partial<WithCommit>;
  if (typeof client.projectorCommit !== 'function') redis.defineCommand('projectorCommit', { numberOfKeys: 1, lua: commitLua });
  return (await (redis as Redis & WithCommit).projectorCommit(checkpointKey, expected, next, ...args)) === 1;
};

// Lua scripts of the projector. Every write of a batch or a render is applied only while the
// partition's checkpoint still holds the value the runner started from: a zombie or retried job
// whose partition moved on writes nothing (design notes §2). A missing checkpoint never matches,
// so a retired version cannot be written into again.
import type { Redis } from 'ioredis';

// KEYS[1] checkpoint; ARGV[1] expected, ARGV[2] new checkpoint ('' keeps it), ARGV[3] the
// commands as one JSON array of string arrays (decoding one string in C is far cheaper than
// shipping tens of thousands of arguments). TRIMBEFORE key cutoff: drop members scored below
// cutoff except the newest of them (the anchor a late check may need). VERSIONED hash channel
// message now field value…: sets the fields that changed, stamps each with `<field>:rev`, a
// revision that only grows (the previous one + 1, at least `now` so a rebuilt model continues
// above the old one), and publishes `message` when anything changed (the live streams).
const commitLua = `
local current = redis.call('GET', KEYS[1])
if current ~= ARGV[1] then return 0 end
local commands = cjson.decode(ARGV[3])
for i = 1, #commands do
  local c = commands[i]
  if c[1] == 'VERSIONED' then
    local rev = nil
    for j = 6, #c, 2 do
      if redis.call('HGET', c[2], c[j]) ~= c[j + 1] then
        if rev == nil then
          local last = tonumber(redis.call('HGET', c[2], 'rev') or '0')
          rev = string.format('%.0f', math.max(last + 1, tonumber(c[5])))
        end
        redis.call('HSET', c[2], c[j], c[j + 1], c[j] .. ':rev', rev)
      end
    end
    if rev ~= nil then
      redis.call('HSET', c[2], 'rev', rev)
      redis.call('PUBLISH', c[3], c[4])
    end
  elseif c[1] == 'TRIMBEFORE' then
    local older = redis.call('ZREVRANGEBYSCORE', c[2], '(' .. c[3], '-inf', 'WITHSCORES', 'LIMIT', 0, 1)
    if #older == 2 then redis.call('ZREMRANGEBYSCORE', c[2], '-inf', '(' .. older[2]) end
  else
    redis.call(unpack(c))
  end
end
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2]) end
return 1
`;

type WithCommit = {
  projectorCommit: (checkpointKey: string, ...args: (string | number)[]) => Promise<number>;
};

/**
 * Applies `commands` (encodeCommands output) and moves the checkpoint from `expected` to `next`
 * ('' keeps it) in one atomic step. Returns false when the checkpoint was not `expected`.
 */
export const commitIfCheckpoint = async (
  redis: Redis,
  checkpointKey: string,
  expected: string,
  next: string,
  commands: string,
): Promise<boolean> => {
  const client = redis as Redis & Partial<WithCommit>;
  if (typeof client.projectorCommit !== 'function')
    redis.defineCommand('projectorCommit', { numberOfKeys: 1, lua: commitLua });
  return (await (redis as Redis & WithCommit).projectorCommit(checkpointKey, expected, next, commands)) === 1;
};

// Every Lua script of the read models, registered one way: read from its .lua file once and
// defined on a client with defineCommand (EVALSHA, falling back to EVAL). Scripts take every key
// they touch in KEYS.
import { readFileSync } from 'node:fs';
import type { Result } from 'ioredis';
import type { RedisClient } from './redisClient.ts';

const scripts = {
  /** KEYS: checkpoint, then every written key; numberOfKeys is passed by the caller. */
  commitWrites: { file: 'commitWrites.lua' },
  /** KEYS: one per read; numberOfKeys is passed by the caller. */
  readKeys: { file: 'readKeys.lua' },
  pageList: { file: 'pageList.lua', numberOfKeys: 3 },
  releaseLock: { file: 'releaseLock.lua', numberOfKeys: 1 },
  renewLock: { file: 'renewLock.lua', numberOfKeys: 1 },
  activateVersion: { file: 'activate.lua', numberOfKeys: 2 },
  tokenAttempt: { file: 'tokenAttempt.lua', numberOfKeys: 1 },
  claimPurges: { file: 'claimPurges.lua', numberOfKeys: 3 },
} as const;

type ScriptName = keyof typeof scripts;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    commitWrites(numberOfKeys: number, ...keysThenArgs: (string | Buffer)[]): Result<number, Context>;
    readKeys(numberOfKeys: number, ...keysThenArgs: string[]): Result<unknown[], Context>;
    pageList(
      accessKey: string,
      zsetKey: string,
      docsKey: string,
      ...range: string[]
    ): Result<(string | number | null)[], Context>;
    releaseLock(lockKey: string, token: string): Result<number, Context>;
    renewLock(lockKey: string, token: string, ttlMs: number): Result<number, Context>;
    activateVersion(
      lockKey: string,
      activeKey: string,
      token: string,
      value: string,
    ): Result<string | null, Context>;
    tokenAttempt(
      counterKey: string,
      maxFailures: number,
      windowMs: number,
      wrong: '0' | '1',
    ): Result<number, Context>;
    claimPurges(
      queuedKey: string,
      claimedKey: string,
      ownersKey: string,
      now: number,
      claimEnd: number,
      limit: number,
      owner: string,
      ...deadOwners: string[]
    ): Result<string[], Context>;
  }
}

const sources = new Map<ScriptName, string>();
const source = (name: ScriptName): string => {
  let lua = sources.get(name);
  if (lua === undefined) {
    lua = readFileSync(new URL(scripts[name].file, import.meta.url), 'utf8');
    sources.set(name, lua);
  }
  return lua;
};

const defined = new WeakSet<RedisClient>();

/** Defines every script on `redis` (once per client) and returns it. */
export const withScripts = <C extends RedisClient>(redis: C): C => {
  if (defined.has(redis)) return redis;
  for (const [name, script] of Object.entries(scripts) as [ScriptName, (typeof scripts)[ScriptName]][])
    redis.defineCommand(name, {
      lua: source(name),
      ...('numberOfKeys' in script ? { numberOfKeys: script.numberOfKeys } : {}),
    });
  defined.add(redis);
  return redis;
};

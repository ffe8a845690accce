// The commands Redis runs for keys under a prefix while some work runs, seen through MONITOR
// (the commands scripts run included): which keys the work reads and writes, and how many bytes.
import { Redis } from 'ioredis';

export type SeenCommand = Readonly<{ name: string; key: string; args: readonly string[] }>;

const WRITES = new Set(['set', 'del', 'unlink', 'hset', 'hdel', 'hincrby', 'zadd', 'zrem', 'sadd', 'srem']);
const WRITES_BY_RANGE = /^zremrange/;

export const isWrite = (command: SeenCommand): boolean =>
  WRITES.has(command.name) || WRITES_BY_RANGE.test(command.name) || command.name === 'expire';

/** The bytes a write sends: its key and arguments (what Redis stores or compares). */
export const writeBytes = (commands: readonly SeenCommand[]): number =>
  commands
    .filter(isWrite)
    .reduce(
      (sum, c) => sum + Buffer.byteLength(c.key) + c.args.reduce((n, a) => n + Buffer.byteLength(a), 0),
      0,
    );

/**
 * Runs `work` and returns the commands that scripts ran on keys starting with `prefix` meanwhile
 * (the script calls themselves are left out: their commands are counted one by one).
 */
export const commandsDuring = async (
  redisUrl: string,
  prefix: string,
  work: () => Promise<unknown>,
): Promise<SeenCommand[]> => {
  const client = new Redis(redisUrl, { lazyConnect: true });
  const monitor = await client.monitor();
  const seen: SeenCommand[] = [];
  const marker = `${prefix}:monitor-end:${process.pid}:${Date.now()}`;
  let ended: () => void = () => undefined;
  const end = new Promise<void>((resolve) => (ended = resolve));
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const [name = '', key = '', ...rest] = args;
    if (key === marker) ended();
    else if (source.includes('lua') && key.startsWith(prefix))
      seen.push({ name: name.toLowerCase(), key, args: rest });
  });
  try {
    await work();
    // MONITOR's stream lags the commands: a marker read after the work ends the watch.
    const reader = new Redis(redisUrl);
    await reader.get(marker);
    reader.disconnect();
    await end;
  } finally {
    monitor.disconnect();
    client.disconnect();
  }
  return seen;
};

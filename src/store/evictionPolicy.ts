// Workers refuse to start on a Redis whose maxmemory-policy is not `noeviction`: an evicted
// checkpoint or document is data loss.
import { Cluster, type Redis } from 'ioredis';

export class RedisEvicts extends Error {
  override readonly name = 'RedisEvicts';
}

const policyOf = (info: string): string | null => /^maxmemory_policy:(\S+)/m.exec(info)?.[1] ?? null;

/**
 * Reads `maxmemory-policy` (INFO memory: also answered where CONFIG is disabled) on the server,
 * or on every master of a cluster.
 * @throws RedisEvicts naming each server whose policy is not noeviction
 */
export const requireNoEviction = async (client: Redis | Cluster): Promise<void> => {
  const servers = client instanceof Cluster ? client.nodes('master') : [client];
  const wrong: string[] = [];
  for (const server of servers) {
    const policy = policyOf(await server.info('memory'));
    if (policy !== 'noeviction')
      wrong.push(
        `${server.options.host ?? 'localhost'}:${server.options.port ?? 6379} has ${policy ?? 'none'}`,
      );
  }
  if (wrong.length > 0)
    throw new RedisEvicts(
      `Redis maxmemory-policy must be noeviction (${wrong.join(', ')}): any other policy drops read ` +
        'models and checkpoints silently when memory runs short. Set `maxmemory-policy noeviction` ' +
        '(redis.conf, or CONFIG SET maxmemory-policy noeviction) and start the workers again.',
    );
};

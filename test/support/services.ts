// Where the tests find PostgreSQL and Redis: TEST_DATABASE_URL / TEST_REDIS_URL when set,
// otherwise containers started with testcontainers, otherwise a clear message.
type Services = { pgServerUrl: string; redisUrl: string; stop: () => Promise<void> };

const HOW_TO =
  'Tests need PostgreSQL and Redis. Set TEST_DATABASE_URL (e.g. postgres://root@127.0.0.1:5432/postgres) ' +
  'and TEST_REDIS_URL (e.g. redis://127.0.0.1:6379), or run Docker so testcontainers can start them.';

export const startServices = async (): Promise<Services> => {
  const pgUrl = process.env['TEST_DATABASE_URL'];
  const redisUrl = process.env['TEST_REDIS_URL'];
  if (pgUrl && redisUrl) return { pgServerUrl: pgUrl, redisUrl, stop: () => Promise.resolve() };
  try {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const { RedisContainer } = await import('@testcontainers/redis');
    const [pg, redis] = await Promise.all([
      pgUrl ? null : new PostgreSqlContainer('postgres:17-alpine').start(),
      redisUrl ? null : new RedisContainer('redis:7-alpine').start(),
    ]);
    return {
      pgServerUrl: pgUrl ?? pg!.getConnectionUri(),
      redisUrl: redisUrl ?? redis!.getConnectionUrl(),
      stop: async () => {
        await Promise.all([pg?.stop(), redis?.stop()]);
      },
    };
  } catch (error) {
    throw new Error(`${HOW_TO}\n(testcontainers: ${(error as Error).message})`, { cause: error });
  }
};

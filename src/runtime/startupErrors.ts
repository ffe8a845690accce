// What a person sees when a server is missing or refuses us at start: one short message naming
// the URL tried, what is wrong, and the fix; never a stack trace (main.ts prints it and exits).

export class StartupError extends Error {
  override readonly name = 'StartupError';
  /** sysexits: 69 EX_UNAVAILABLE (no server), 77 EX_NOPERM (refused us), 78 EX_CONFIG. */
  readonly exitCode: 69 | 77 | 78;
  constructor(message: string, exitCode: 69 | 77 | 78) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The URL as it may be printed: its password hidden. */
export const shownUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
};

export const INSTALL_POSTGRES =
  '  Debian/Ubuntu: sudo apt-get install postgresql\n' +
  '  macOS:         brew install postgresql@17 && brew services start postgresql@17\n' +
  '  Docker:        docker compose up -d postgres redis;  DATABASE_URL=postgres://statuspage:statuspage@127.0.0.1:55432/statuspage';

export const INSTALL_REDIS =
  '  Debian/Ubuntu: sudo apt-get install redis-server\n' +
  '  macOS:         brew install redis && brew services start redis\n' +
  '  Docker:        docker compose up -d postgres redis;  REDIS_URL=redis://127.0.0.1:56379';

/** Errors that mean nothing listens there (or the name does not resolve). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ENOENT',
]);

/** The error's code, looking through `cause`, AggregateError's `errors` (a host with v4 and v6). */
export const errorCode = (error: unknown): string | null => {
  for (let e: unknown = error; e instanceof Error || (typeof e === 'object' && e !== null);) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const inner = (e as { errors?: unknown[] }).errors?.[0] ?? (e as { cause?: unknown }).cause;
    if (inner === undefined) break;
    e = inner;
  }
  return null;
};

/** The first line of what the error says. */
const firstLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

export const isUnreachable = (error: unknown): boolean => {
  const code = errorCode(error);
  if (code !== null) return UNREACHABLE.has(code);
  // pg's connectionTimeoutMillis and ioredis's connectTimeout say so in words only.
  return /timeout|timed out|connection terminated/i.test(firstLine(error));
};

const reason = (error: unknown): string => {
  const code = errorCode(error);
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  return firstLine(error);
};

/** PostgreSQL at `url` refused us or is not there: the message and the exit code. */
export const postgresFailure = (error: unknown, url: string, variableSet: boolean): StartupError => {
  const at = shownUrl(url);
  const code = errorCode(error);
  const message = firstLine(error);
  if (isUnreachable(error))
    return new StartupError(
      `PostgreSQL does not answer at ${at} (${reason(error)}).\n` +
        `Start one (then run this again):\n${INSTALL_POSTGRES}\n` +
        (variableSet
          ? 'or set DATABASE_URL to a server that runs.'
          : 'or set DATABASE_URL to a server that runs (npm start runs one of its own when none answers).'),
      69,
    );
  // A server that asks for a password none was given for: pg says so in words (SASL).
  if (
    code === '28P01' ||
    code === '28000' ||
    /password must be a string|password authentication/i.test(message)
  )
    return new StartupError(
      `PostgreSQL at ${at} refused the login: ${message}.\n` +
        'Fix the user or password in DATABASE_URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE); a new user, e.g.:\n' +
        '  sudo -u postgres psql -c "CREATE ROLE statuspage LOGIN CREATEDB PASSWORD \'choose-one\'"',
      77,
    );
  if (code === '42501' || code === '3D000')
    return new StartupError(
      `PostgreSQL at ${at}: ${message}.\n` +
        'The user of DATABASE_URL needs to own its database (or have CREATEDB to create it), e.g. as a superuser:\n' +
        '  CREATE DATABASE statuspage OWNER <user>;   or   ALTER ROLE <user> CREATEDB;',
      77,
    );
  return new StartupError(`PostgreSQL at ${at} failed: ${message}`, 69);
};

/** Redis at `url` refused us or is not there. */
export const redisFailure = (error: unknown, url: string): StartupError => {
  const at = shownUrl(url);
  const message = firstLine(error);
  if (/NOAUTH|WRONGPASS|invalid password|invalid username/i.test(message))
    return new StartupError(
      `Redis at ${at} refused the login: ${message}.\n` +
        'Put the password in REDIS_URL: redis://:PASSWORD@HOST:PORT (or redis://USER:PASSWORD@HOST:PORT).',
      77,
    );
  if (isUnreachable(error) || /connection is closed|max retries/i.test(message))
    return new StartupError(
      `Redis does not answer at ${at} (${reason(error)}).\n` +
        `Start one (then run this again):\n${INSTALL_REDIS}\n` +
        'or set REDIS_URL (or REDIS_CLUSTER_NODES) to a server that runs.',
      69,
    );
  return new StartupError(`Redis at ${at} failed: ${message}`, 69);
};

/** What stopped the embedded PostgreSQL: the step, its data folder, what it said, and the first folder on its way its user may not enter. */
export type EmbeddedPostgresTrouble = Readonly<{
  step: 'be set up' | 'start';
  pgdata: string;
  said: string;
  closed: Readonly<{ user: string; folder: string }> | null;
}>;

/** The embedded PostgreSQL could not run: the cause on the first line, its fix on the next. */
export const embeddedPostgresFailure = ({
  step,
  pgdata,
  said,
  closed,
}: EmbeddedPostgresTrouble): StartupError => {
  const head = `The embedded PostgreSQL (data in ${pgdata}) could not ${step}`;
  const own = 'set DATABASE_URL to a server of your own.';
  if (closed)
    return new StartupError(
      `${head}: the user ${closed.user} cannot enter ${closed.folder}${said ? ` (${said})` : ''}.\n` +
        `Let it in (chmod o+x ${closed.folder}), or ${own}`,
      77,
    );
  if (/EACCES|EPERM|permission denied/i.test(said))
    return new StartupError(
      `${head}: permission denied (${firstLine(said)}).\n` +
        `Its programs must be executable (not on a file system mounted noexec: findmnt -T ${pgdata}) and ` +
        `its folder writable by the user it runs as; or ${own}`,
      77,
    );
  if (/ENOSPC|no space left/i.test(said))
    return new StartupError(
      `${head}: no space left on its device.\nFree some (df ${pgdata}), then run this again; or ${own}`,
      69,
    );
  return new StartupError(
    `${head}:\n  ${said.split('\n').slice(-5).join('\n  ')}\n` +
      `Install PostgreSQL instead (then run this again):\n${INSTALL_POSTGRES}\nor set DATABASE_URL.`,
    69,
  );
};

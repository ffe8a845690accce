import { describe, expect, it } from 'vitest';
import { errorCode, postgresFailure, redisFailure, shownUrl } from '../../src/runtime/startupErrors.ts';

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
});

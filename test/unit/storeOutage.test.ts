// Outages are told from bugs by the clients' error classes and codes: 503 for the first, 500 for the rest.
import { ReplyError } from 'ioredis';
import { MaxRetriesPerRequestError } from 'ioredis/built/errors/index.js';
import { ConnectionError } from 'slonik';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isStoreOutage } from '../../src/http/storeOutage.ts';

const withCode = (code: string, message = 'failed'): Error => Object.assign(new Error(message), { code });

describe('isStoreOutage', () => {
  it.each([
    ['a Redis still loading its data', new ReplyError('LOADING Redis is loading the dataset in memory')],
    ['a Redis busy with a script', new ReplyError('BUSY Redis is busy running a script.')],
    [
      'a Redis at its memory limit',
      new ReplyError("OOM command not allowed when used memory > 'maxmemory'."),
    ],
    ['a replica during failover', new ReplyError("READONLY You can't write against a read only replica.")],
    ['a cluster resharding', new ReplyError('TRYAGAIN Multiple keys request during rehashing of slot')],
    ['a request out of retries', new MaxRetriesPerRequestError(1)],
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:6379')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a command timeout', new Error('Command timed out')],
    ['a closed connection', new Error('Connection is closed.')],
  ])('is true for %s', (_name, error) => {
    expect(isStoreOutage(error)).toBe(true);
  });

  it.each([
    ['a script error', new ReplyError('ERR Error running script (call to f_1): bad argument')],
    ['a wrong type', new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value')],
    ['a bug whose text names a busy reply', new Error('BUSY reading')],
    ['a bug whose text names a refused connection', new Error('ECONNREFUSED in a message only')],
    ['a value that is no error', 'ECONNREFUSED'],
  ])('is false for %s', (_name, error) => {
    expect(isStoreOutage(error)).toBe(false);
  });
});

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a slonik connection error', new ConnectionError('connect failed')],
    ['a shutting-down server', withCode('57P01')],
    ['a lock timeout, as the cause', Object.assign(new Error('query failed'), { cause: withCode('55P03') })],
    ['a refused connection', withCode('ECONNREFUSED')],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('is false for a constraint violation', () => {
    expect(isDatabaseUnavailable(withCode('23505'))).toBe(false);
  });
});

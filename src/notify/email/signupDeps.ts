// What the public sign-up and the subscription pages need; absent from the app, sign-up is off.
import type { DatabasePool } from 'slonik';
import type { Clock } from '../../shared/clock.ts';
import type { Logger } from '../../shared/logger.ts';
import type { RedisClient } from '../../store/redisClient.ts';
import type { MailSettings } from './mailSettings.ts';
import type { MailTransport } from './transport.ts';

export type SignupDeps = Readonly<{
  db: DatabasePool;
  transport: MailTransport;
  settings: MailSettings;
  /** The links' signing key (mailKey.ts). */
  key: Buffer;
  clock: Clock;
  log: Logger;
  /** The counters' store (the API's Redis) and prefix; tests pass their own. */
  redis: RedisClient;
  prefix: string;
}>;

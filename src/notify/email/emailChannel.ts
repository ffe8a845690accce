// The email channel of a process, from its settings: the transport, the links' key, and what
// uses them (the sign-up routes of the API, the Sender of the notifier). Null without a transport.
import type { DatabasePool } from 'slonik';
import type { Config } from '../../config.ts';
import type { Sender } from '../channel.ts';
import { hostOfUrl } from '../../shared/hostName.ts';
import { systemClock } from '../../shared/clock.ts';
import type { Logger } from '../../shared/logger.ts';
import type { RedisClient } from '../../store/redisClient.ts';
import { createEmailSender } from './emailSender.ts';
import { loadMailKey } from './mailKey.ts';
import { loadMailSettings } from './mailSettings.ts';
import type { SignupDeps } from './signupDeps.ts';
import { createMailTransport } from './transport.ts';

export type EmailChannel = Readonly<{ signup: SignupDeps; sender: Sender; close: () => Promise<void> }>;

/** @throws ConfigError for bad MAIL_* settings */
export const createEmailChannel = async (
  config: Config,
  deps: Readonly<{ db: DatabasePool; redis: RedisClient; log: Logger }>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<EmailChannel | null> => {
  const settings = loadMailSettings(env, hostOfUrl(config.publicBaseUrl) ?? 'localhost');
  const transport = createMailTransport(settings);
  if (transport === null) return null;
  const key = await loadMailKey(deps.db, settings.tokenSecret);
  const common = { transport, settings, key, clock: systemClock };
  return {
    signup: { ...common, db: deps.db, log: deps.log, redis: deps.redis, prefix: config.redisPrefix },
    sender: createEmailSender({ ...common, baseUrl: config.publicBaseUrl }),
    close: () => {
      transport.close();
      return Promise.resolve();
    },
  };
};

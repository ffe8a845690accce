// A public API with the email sign-up on, over a real projector, PostgreSQL, Redis and a local
// SMTP server; its log lines are kept so tests can prove no address ever reaches them.
import { pino } from 'pino';
import { sql } from 'slonik';
import { z } from 'zod';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { loadMailKey } from '../../src/notify/email/mailKey.ts';
import { loadMailSettings } from '../../src/notify/email/mailSettings.ts';
import type { SignupDeps } from '../../src/notify/email/signupDeps.ts';
import { createMailTransport } from '../../src/notify/email/transport.ts';
import { monitorConfigured, pageConfigured } from './events.ts';
import { startProjectorEnv, URLS, type ProjectorEnv } from './projectorEnv.ts';
import { startSmtp, type TestSmtp } from './smtpServer.ts';

export const PRIVATE_TOKEN = 'vault-token-0123456789abcdef';
export const NOW = '2026-11-22T12:00:30Z';

export type SignupFixture = Readonly<{
  env: ProjectorEnv;
  smtp: TestSmtp;
  deps: SignupDeps;
  logs: string[];
  /** An app with sign-up on (the default) or off. */
  app: (signup?: boolean) => ReturnType<typeof buildApp>;
  row: (email: string) => Promise<Readonly<{
    id: string;
    state: string;
    components: readonly string[];
    confirmed: boolean;
  }> | null>;
  close: () => Promise<void>;
}>;

const Row = z.object({
  id: z.string(),
  state: z.string(),
  components: z.array(z.string()),
  confirmed: z.boolean(),
});

export const startSignupFixture = async (): Promise<SignupFixture> => {
  const env = await startProjectorEnv({ now: NOW });
  await env.append(
    pageConfigured('acme', { title: 'Acme <Cloud>' }),
    monitorConfigured('acme', 1, { name: 'API' }),
    monitorConfigured('acme', 2, { name: 'Database' }),
    pageConfigured('vault', { plan: 'business', auth_token: PRIVATE_TOKEN }),
    pageConfigured('beta', { title: 'Beta' }),
    pageConfigured('kaffee', { title: 'Kaffee GmbH', locale: 'de' }),
  );
  await env.project();
  const smtp = await startSmtp();
  const logs: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  const settings = loadMailSettings(
    { MAIL_URL: smtp.url, MAIL_FROM: 'Acme Status <status@mail.test>' },
    'status.test',
  );
  const deps: SignupDeps = {
    db: env.t.db,
    transport: createMailTransport(settings)!,
    settings,
    key: await loadMailKey(env.t.db, null),
    clock: env.now,
    log,
    redis: env.redis,
    prefix: env.prefix,
  };
  const config = loadConfig({ PUBLIC_BASE_URL: URLS.baseUrl, TRUST_PROXY: 'on' });
  return {
    env,
    smtp,
    deps,
    logs,
    app: (signup = true) =>
      buildApp({
        redis: env.redis,
        prefix: env.prefix,
        clock: env.now,
        config,
        log,
        ...(signup ? { signup: deps } : {}),
      }),
    row: (email) =>
      env.t.db.maybeOne(sql.type(Row)`
        SELECT id, state, components, confirmed_at IS NOT NULL AS confirmed FROM subscribers
        WHERE target = ${email} AND channel = 'email'`),
    close: async () => {
      deps.transport.close();
      await smtp.close();
      await env.close();
    },
  };
};

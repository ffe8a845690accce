// Without MAIL_URL: `npm start` writes mail to a folder (MAIL_FOLDER, .data/mail) and logs the
// link, never the address; `serve` with neither has no email channel at all (sign-up is 404).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createEmailChannel } from '../../src/notify/email/emailChannel.ts';
import { sendConfirmation } from '../../src/notify/email/sendConfirmation.ts';
import { signUp } from '../../src/notify/email/subscriberStore.ts';
import { freshDatabase, testRedis, type TestDatabase } from '../support/testEnv.ts';

describe('mail without an SMTP server', () => {
  let t: TestDatabase;
  const redis = testRedis();
  const config = loadConfig({ PUBLIC_BASE_URL: 'http://localhost:3000' });

  beforeAll(async () => {
    t = await freshDatabase();
  });
  afterAll(async () => {
    redis.disconnect();
    await t.close();
  });

  it('is no channel at all with neither MAIL_URL nor MAIL_FOLDER', async () => {
    expect(
      await createEmailChannel(config, { db: t.db, redis, log: pino({ level: 'silent' }) }, {}),
    ).toBeNull();
  });

  it('writes the mail as a file and logs its link, not the address', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'mail-')), 'mail');
    const logs: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
    const channel = (await createEmailChannel(config, { db: t.db, redis, log }, { MAIL_FOLDER: folder }))!;
    const row = await signUp(t.db, { page: 'demo', email: 'reader@example.org', components: [] });
    await sendConfirmation(channel.signup, {
      baseUrl: config.publicBaseUrl,
      page: { slug: 'demo', title: 'Demo Status', url: 'http://localhost:3000/s/demo', locale: 'en' },
      email: 'reader@example.org',
      row,
    });
    await channel.close();
    const files = readdirSync(folder);
    expect(files).toEqual([expect.stringMatching(/\.eml$/)]);
    const mail = await simpleParser(readFileSync(join(folder, files[0] ?? '')));
    expect(mail.from?.text).toBe('"Status" <status@localhost>');
    expect(mail.subject).toBe('Confirm your subscription to Demo Status');
    const link = /Confirm the subscription: (\S+)/.exec(mail.text ?? '')?.[1];
    expect(link).toMatch(/^http:\/\/localhost:3000\/s\/demo\/subscription\/confirm\?token=/);
    const line = JSON.parse(logs.find((l) => l.includes('subscription mail written')) ?? '{}') as Record<
      string,
      unknown
    >;
    expect(line).toMatchObject({ subscriber: row.id, folder, link });
    expect(logs.join('\n')).not.toContain('reader@example.org');
  });
});

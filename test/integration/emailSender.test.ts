// The email channel end to end at the SMTP level: a real SMTP server of the test's own receives
// what the Sender hands to nodemailer; mailparser reads it back and mailauth checks the DKIM
// signature against the key the test published.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dkimVerify } from 'mailauth';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationMessage } from '../../projections/notify/message.ts';
import type { Recipient } from '../../src/notify/channel.ts';
import { createEmailSender } from '../../src/notify/email/emailSender.ts';
import { loadMailSettings, type MailSettings } from '../../src/notify/email/mailSettings.ts';
import { verifyToken } from '../../src/notify/email/tokens.ts';
import { createMailTransport, type MailTransport } from '../../src/notify/email/transport.ts';
import { startSmtp, type TestSmtp } from '../support/smtpServer.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const KEY = Buffer.from('k'.repeat(32));
const BASE = 'https://status.example.com';

const message: NotificationMessage = {
  id: 'msg_8f1c2d',
  type: 'incident.updated',
  timestamp: '2026-11-22T11:59:00Z',
  page: { slug: 'acme', title: 'Acme <Status> & Co', url: 'https://status.example.com/s/acme' },
  incident: {
    id: 'inc-1',
    title: 'Slow <b>API</b>',
    state: 'identified',
    started_at: '2026-11-22T11:30:00Z',
    components: ['API'],
    updates: [
      { status: 'investigating', message: 'Looking into it.', created_at: '2026-11-22T11:30:00Z' },
      { status: 'identified', message: 'A <script>bad</script> query.', created_at: '2026-11-22T11:59:00Z' },
    ],
  },
};

const recipient = (target: string): Recipient => ({
  id: 'sub_AAAAAAAAAAAAAAAAAAAAAA',
  page: 'acme',
  channel: 'email',
  target,
  format: 'native',
  secrets: [],
});

describe('the email Sender', { timeout: 60_000 }, () => {
  let smtp: TestSmtp;
  let publicKey: string;
  let keyFile: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    publicKey = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    keyFile = join(mkdtempSync(join(tmpdir(), 'dkim-')), 'key.pem');
    writeFileSync(keyFile, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  });
  /** Closed before the server: a pooled connection left open holds its close back 30 s. */
  const transports: MailTransport[] = [];
  const transportOf = (settings: MailSettings): MailTransport => {
    const transport = createMailTransport(settings)!;
    transports.push(transport);
    return transport;
  };
  afterAll(async () => {
    for (const transport of transports) transport.close();
    await smtp.close();
  });

  const senderWith = (extra: Record<string, string> = {}) => {
    const settings = loadMailSettings(
      { MAIL_URL: smtp.url, MAIL_FROM: 'Acme Status <status@mail.example.com>', ...extra },
      'status.example.com',
    );
    const transport = transportOf(settings);
    return createEmailSender({ transport, settings, key: KEY, baseUrl: BASE, clock: () => NOW });
  };

  it('hands the SMTP server one signed mail with both parts, the list headers and a stable Message-ID', async () => {
    const send = senderWith({
      MAIL_DKIM_DOMAIN: 'mail.example.com',
      MAIL_DKIM_SELECTOR: 'sel1',
      MAIL_DKIM_KEY_FILE: keyFile,
    });
    const arriving = smtp.next('reader@example.org');
    expect(await send(recipient('reader@example.org'), message)).toEqual({ kind: 'delivered', status: 250 });
    const mail = await arriving;
    const parsed = await simpleParser(mail.raw);

    const listUnsubscribe = parsed.headerLines.find((h) => h.key === 'list-unsubscribe')!.line;
    const token = /\?token=([^>]+)>$/.exec(listUnsubscribe)![1]!;
    const unsubscribe = `${BASE}/s/acme/subscription/unsubscribe?token=${token}`;
    expect(listUnsubscribe).toBe(`List-Unsubscribe: <${unsubscribe}>`);
    expect(verifyToken(KEY, decodeURIComponent(token), 'manage', NOW)).toEqual({
      purpose: 'manage',
      subscriber: 'sub_AAAAAAAAAAAAAAAAAAAAAA',
      page: 'acme',
    });
    expect(parsed.headerLines.find((h) => h.key === 'list-unsubscribe-post')!.line).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
    expect(parsed.messageId).toBe('<msg_8f1c2d@mail.example.com>');
    expect(parsed.subject).toBe('[Acme <Status> & Co] Incident update: Slow <b>API</b>');
    expect(mail.to).toEqual(['reader@example.org']);

    const manage = `${BASE}/s/acme/subscription?token=${token}`;
    expect(parsed.headers.get('content-language')).toBe('en');
    expect(parsed.text).toContain('Identified (Nov 22, 2026, 11:59 AM UTC)\nA <script>bad</script> query.');
    expect(parsed.text).toContain('View the status page: https://status.example.com/s/acme');
    expect(parsed.text).toContain(`Manage your subscription: ${manage}`);
    expect(parsed.text).toContain(`Unsubscribe: ${unsubscribe}`);
    const html = String(parsed.html);
    expect(html).toContain('A &lt;script&gt;bad&lt;/script&gt; query.');
    expect(html).toContain('<h1 style="font-size: 1.3em">Incident update: Slow &lt;b&gt;API&lt;/b&gt;</h1>');
    expect(html).not.toContain('<script>');
    expect(html).toContain(`<a href="${manage}">Manage your subscription</a>`);
    expect(html).toContain(`<a href="${unsubscribe}">Unsubscribe</a>`);

    const dkim = await dkimVerify(mail.raw, {
      resolver: (name: string, type: string) => {
        expect({ name, type }).toEqual({ name: 'sel1._domainkey.mail.example.com', type: 'TXT' });
        return Promise.resolve([[`v=DKIM1; k=rsa; p=${publicKey}`]]);
      },
    });
    expect(dkim.results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([
      ['mail.example.com', 'sel1', 'pass'],
    ]);
    const signed = /\bh=([^;]+)/.exec(
      parsed.headerLines.find((h) => h.key === 'dkim-signature')!.line.replace(/\s+/g, ''),
    )![1]!;
    expect(signed.toLowerCase().split(':')).toEqual(
      expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post', 'from', 'subject', 'message-id']),
    );
  });

  it("speaks the page's language: a German page's mail in German, Content-Language: de", async () => {
    const send = senderWith();
    const arriving = smtp.next('leser@example.org');
    const german = { ...message, page: { ...message.page, locale: 'de' as const } };
    expect(await send(recipient('leser@example.org'), german)).toEqual({ kind: 'delivered', status: 250 });
    const parsed = await simpleParser((await arriving).raw);
    expect(parsed.subject).toBe('[Acme <Status> & Co] Update zum Vorfall: Slow <b>API</b>');
    expect(parsed.headers.get('content-language')).toBe('de');
    expect(parsed.text).toContain(
      'Ursache erkannt (22. Nov. 2026, 11:59 UTC)\nA <script>bad</script> query.',
    );
    expect(parsed.text).toContain('Statusseite ansehen: https://status.example.com/s/acme');
    const html = String(parsed.html);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<p>Betroffen: API</p>');
  });

  it('sends a retry as the same message: the same Message-ID', async () => {
    const send = senderWith();
    const first = smtp.next('twice@example.org');
    await send(recipient('twice@example.org'), message);
    const second = (async () => {
      await first;
      return smtp.next('twice@example.org');
    })();
    await first;
    await send(recipient('twice@example.org'), message);
    const ids = await Promise.all(
      [first, second].map(async (m) => (await simpleParser((await m).raw)).messageId),
    );
    expect(ids).toEqual(['<msg_8f1c2d@mail.example.com>', '<msg_8f1c2d@mail.example.com>']);
  });

  it('maps a permanent refusal (5xx) to rejected and a temporary one (4xx) to retry', async () => {
    smtp.refuse.set('gone@example.org', 550);
    smtp.refuse.set('full@example.org', 452);
    const send = senderWith();
    expect(await send(recipient('gone@example.org'), message)).toEqual({
      kind: 'rejected',
      status: 550,
      reason: 'smtp 550',
    });
    expect(await send(recipient('full@example.org'), message)).toEqual({
      kind: 'retry',
      status: 452,
      retryAfterMs: null,
      reason: 'smtp 452',
    });
  });

  it('hands many mails over one kept connection, and one connection each with MAIL_URL ?pool=false', async () => {
    const connectionsFor = async (url: string) => {
      const settings = loadMailSettings(
        { MAIL_URL: url, MAIL_FROM: 'status@mail.example.com' },
        'status.example.com',
      );
      const transport = transportOf(settings);
      const send = createEmailSender({ transport, settings, key: KEY, baseUrl: BASE, clock: () => NOW });
      const before = smtp.connections();
      for (const n of [1, 2, 3])
        expect(await send(recipient(`pool${String(n)}@example.org`), message)).toEqual({
          kind: 'delivered',
          status: 250,
        });
      transport.close();
      return smtp.connections() - before;
    };
    expect(await connectionsFor(smtp.url)).toBe(1);
    expect(await connectionsFor(`${smtp.url}?pool=false`)).toBe(3);
  });

  it('retries when the server does not answer at all', async () => {
    const settings = loadMailSettings(
      { MAIL_URL: 'smtp://127.0.0.1:1', MAIL_FROM: 'status@mail.example.com' },
      'status.example.com',
    );
    const send = createEmailSender({
      transport: transportOf(settings),
      settings,
      key: KEY,
      baseUrl: BASE,
      clock: () => NOW,
    });
    expect(await send(recipient('reader@example.org'), message)).toEqual({
      kind: 'retry',
      status: null,
      retryAfterMs: null,
      reason: 'smtp ESOCKET',
    });
  });
});

import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NotificationMessage } from '../../projections/notify/message.ts';
import { ConfigError } from '../../src/config.ts';
import { composeConfirmation } from '../../src/notify/email/composeConfirmation.ts';
import { composeNotification } from '../../src/notify/email/composeNotification.ts';
import { domainOf, loadMailSettings } from '../../src/notify/email/mailSettings.ts';

const links = {
  from: 'Acme Status <status@mail.example.com>',
  domain: 'mail.example.com',
  manage: 'https://status.example.com/s/acme/subscription?token=m',
  unsubscribe: 'https://status.example.com/s/acme/subscription/unsubscribe?token=m',
};
const page = { slug: 'acme', title: 'Acme', url: 'https://status.example.com/s/acme' };

describe('composing a notification mail', () => {
  it('a maintenance: description, window, components; the list headers prepared whole', () => {
    const message: NotificationMessage = {
      id: 'msg_1',
      type: 'maintenance.scheduled',
      timestamp: '2026-11-22T12:00:00Z',
      page,
      maintenance: {
        id: 'm1',
        title: 'Database upgrade',
        description: 'Short read-only period.',
        status: 'scheduled',
        scheduled_start: '2026-11-25T02:00:00Z',
        scheduled_end: '2026-11-25T03:00:00Z',
        components: ['Database'],
        created_at: '2026-11-22T12:00:00Z',
      },
    };
    const mail = composeNotification(message, 'reader@example.org', links);
    expect(mail.subject).toBe('[Acme] Maintenance scheduled: Database upgrade');
    expect(mail.messageId).toBe('<msg_1@mail.example.com>');
    expect(mail.headers).toEqual({
      'Content-Language': { prepared: true, value: 'en' },
      'List-Unsubscribe': { prepared: true, value: `<${links.unsubscribe}>` },
      'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' },
    });
    expect(mail.text).toBe(
      [
        'Acme',
        '',
        'Maintenance scheduled: Database upgrade',
        '',
        'Short read-only period.',
        '',
        'Scheduled: Nov 25, 2026, 02:00 AM to Nov 25, 2026, 03:00 AM (UTC)',
        '',
        'Affected: Database',
        '',
        'View the status page: https://status.example.com/s/acme',
        '',
        '--',
        'You receive this because you subscribed to updates of Acme.',
        `Manage your subscription: ${links.manage}`,
        `Unsubscribe: ${links.unsubscribe}`,
        '',
      ].join('\n'),
    );
  });

  it('coalesced incident updates: each, newest first', () => {
    const message: NotificationMessage = {
      id: 'msg_2',
      type: 'incident.updated',
      timestamp: '2026-11-22T12:00:00Z',
      page,
      coalesced: 2,
      incident: {
        id: 'i1',
        title: 'Errors',
        state: 'monitoring',
        started_at: '2026-11-22T11:00:00Z',
        components: [],
        updates: [
          { status: 'investigating', message: 'one', created_at: '2026-11-22T11:00:00Z' },
          { status: 'identified', message: 'two', created_at: '2026-11-22T11:59:40Z' },
          { status: 'monitoring', message: 'three', created_at: '2026-11-22T11:59:55Z' },
        ],
      },
    };
    const { text } = composeNotification(message, 'reader@example.org', links);
    expect(text).toContain(
      '2 updates in one message.\n\nMonitoring (Nov 22, 2026, 11:59 AM UTC)\nthree\n\nIdentified (Nov 22, 2026, 11:59 AM UTC)\ntwo\n\nView',
    );
    expect(text).not.toContain('Investigating'); // the update before the coalesced ones
  });

  it('the confirmation: the confirm link, no list headers, no manage footer', () => {
    const mail = composeConfirmation({
      from: links.from,
      domain: links.domain,
      to: 'reader@example.org',
      page: { ...page, locale: 'en' },
      kind: 'confirm',
      link: 'https://status.example.com/s/acme/subscription/confirm?token=c',
      id: 'confirm_x',
    });
    expect(mail.headers).toEqual({ 'Content-Language': { prepared: true, value: 'en' } });
    expect(mail.messageId).toBe('<confirm_x@mail.example.com>');
    expect(mail.text).toContain(
      'Confirm the subscription: https://status.example.com/s/acme/subscription/confirm?token=c',
    );
    expect(mail.text).not.toContain('Unsubscribe');
    expect(mail.html).toContain('<a href="https://status.example.com/s/acme/subscription/confirm?token=c">');
  });
});

describe("mails in the page's language", () => {
  const dePage = { ...page, title: 'Acme GmbH', locale: 'de' as const };

  it("a German page's notification: subject, sentences and times in German, in UTC", () => {
    const message: NotificationMessage = {
      id: 'msg_de',
      type: 'incident.opened',
      timestamp: '2026-11-22T12:00:00Z',
      page: dePage,
      incident: {
        id: 'i1',
        title: 'Fehler beim Login',
        state: 'investigating',
        started_at: '2026-11-22T11:00:00Z',
        components: ['API', 'Web'],
        updates: [
          { status: 'investigating', message: 'Wir prüfen das.', created_at: '2026-11-22T11:00:00Z' },
        ],
      },
    };
    const mail = composeNotification(message, 'leser@example.org', links);
    expect(mail.subject).toBe('[Acme GmbH] Neuer Vorfall: Fehler beim Login');
    expect(mail.headers['Content-Language']).toEqual({ prepared: true, value: 'de' });
    expect(mail.text).toContain(
      'Wird untersucht (22. Nov. 2026, 11:00 UTC)\nWir prüfen das.\n\nBetroffen: API, Web',
    );
    expect(mail.text).toContain(
      'Sie erhalten diese Nachricht, weil Sie Updates von Acme GmbH abonniert haben.',
    );
    expect(mail.text).toContain(`Abonnement verwalten: ${links.manage}`);
    expect(mail.html).toContain('<html lang="de">');
    expect(mail.html).toContain('<a href="https://status.example.com/s/acme">Statusseite ansehen</a>');
  });

  it("a monitor's state and a maintenance window, in Japanese", () => {
    const jaPage = { ...page, locale: 'ja' as const };
    const monitor = composeNotification(
      {
        id: 'msg_ja',
        type: 'monitor.state',
        timestamp: '2026-11-22T12:00:00Z',
        page: jaPage,
        monitor: { id: '1', name: 'API', state: 'down', since: '2026-11-22T12:00:00Z' },
      },
      'r@example.org',
      links,
    );
    expect(monitor.subject).toBe('[Acme] ステータスの変化: API');
    expect(monitor.text).toContain('API は停止しています。');
    const maintenance = composeNotification(
      {
        id: 'msg_ja2',
        type: 'maintenance.reminder',
        timestamp: '2026-11-22T12:00:00Z',
        page: jaPage,
        maintenance: {
          id: 'm1',
          title: 'DB',
          description: '',
          status: 'scheduled',
          scheduled_start: '2026-11-25T02:00:00Z',
          scheduled_end: '2026-11-25T03:00:00Z',
          components: [],
          created_at: '2026-11-22T12:00:00Z',
        },
      },
      'r@example.org',
      links,
    );
    expect(maintenance.subject).toBe('[Acme] まもなくメンテナンス: DB');
    expect(maintenance.text).toContain('予定: 2026年11月25日 02:00 ～ 2026年11月25日 03:00 (UTC)');
  });

  it("a German page's confirmation", () => {
    const mail = composeConfirmation({
      from: links.from,
      domain: links.domain,
      to: 'leser@example.org',
      page: dePage,
      kind: 'confirm',
      link: 'https://status.example.com/s/acme/subscription/confirm?token=c',
      id: 'confirm_de',
    });
    expect(mail.subject).toBe('Bestätigen Sie Ihr Abonnement von Acme GmbH');
    expect(mail.headers).toEqual({ 'Content-Language': { prepared: true, value: 'de' } });
    expect(mail.text).toContain(
      'Jemand, wahrscheinlich Sie, möchte Updates von Acme GmbH an diese Adresse erhalten.',
    );
    expect(mail.text).toContain(
      'Abonnement bestätigen: https://status.example.com/s/acme/subscription/confirm?token=c',
    );
  });
});

describe('mail settings', () => {
  it('defaults the sender to the public host and reads its domain', () => {
    const settings = loadMailSettings({}, 'status.example.com');
    expect(settings).toEqual({
      url: null,
      folder: null,
      from: 'Status <status@status.example.com>',
      domain: 'status.example.com',
      dkim: null,
      tokenSecret: null,
    });
    expect(domainOf('a@b.example')).toBe('b.example');
    expect(domainOf('no address')).toBeNull();
  });

  it('stops on a bad URL, a sender without an address, half a DKIM set or an unreadable key', () => {
    const bad = (env: Record<string, string>) => () => loadMailSettings(env, 'h.example');
    expect(bad({ MAIL_URL: 'http://mail.example.com' })).toThrow(
      /MAIL_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    expect(bad({ MAIL_FROM: 'Status' })).toThrow(/MAIL_FROM/);
    expect(bad({ MAIL_DKIM_DOMAIN: 'example.com' })).toThrow(
      'MAIL_DKIM_SELECTOR, MAIL_DKIM_KEY_FILE: required with MAIL_DKIM_DOMAIN',
    );
    expect(
      bad({
        MAIL_DKIM_DOMAIN: 'example.com',
        MAIL_DKIM_SELECTOR: 's',
        MAIL_DKIM_KEY_FILE: '/nonexistent/key.pem',
      }),
    ).toThrow(ConfigError);
    expect(bad({ MAIL_TOKEN_SECRET: 'short' })).toThrow('MAIL_TOKEN_SECRET: must be at least 32 characters');
  });

  it('reads the DKIM key file once, as an RSA key; MAIL_FOLDER counts only without MAIL_URL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dkim-'));
    const keyFile = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return {
        MAIL_DKIM_DOMAIN: 'example.com',
        MAIL_DKIM_SELECTOR: 's1',
        MAIL_DKIM_KEY_FILE: join(dir, name),
      };
    };
    const pem = (type: 'rsa' | 'ed25519') =>
      String(
        (type === 'rsa'
          ? generateKeyPairSync('rsa', { modulusLength: 1024 })
          : generateKeyPairSync('ed25519')
        ).privateKey.export({ type: 'pkcs8', format: 'pem' }),
      );
    const rsa = pem('rsa');
    const dkim = loadMailSettings(keyFile('rsa.pem', rsa), 'h.example').dkim;
    expect({ ...dkim, privateKey: dkim?.privateKey.export({ type: 'pkcs8', format: 'pem' }) }).toEqual({
      domain: 'example.com',
      selector: 's1',
      privateKey: rsa,
    });
    expect(() => loadMailSettings(keyFile('text.pem', 'PEM'), 'h.example')).toThrow(
      'MAIL_DKIM_KEY_FILE: not a PEM private key',
    );
    expect(() => loadMailSettings(keyFile('ed.pem', pem('ed25519')), 'h.example')).toThrow(
      'MAIL_DKIM_KEY_FILE: an RSA key is needed, not ed25519',
    );
    expect(loadMailSettings({ MAIL_FOLDER: '/tmp/m' }, 'h.example').folder).toBe('/tmp/m');
    expect(
      loadMailSettings({ MAIL_FOLDER: '/tmp/m', MAIL_URL: 'smtp://x:25' }, 'h.example').folder,
    ).toBeNull();
  });
});

// Where mail goes: the SMTP server of MAIL_URL, or, for the demo of `npm start` without one,
// .eml files in a folder. DKIM signs either when MAIL_DKIM_* is set, covering the list headers
// (RFC 8058 accepts one-click unsubscribe only when the signature covers both).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { ComposedMail } from './composedMail.ts';
import type { MailSettings } from './mailSettings.ts';

export type MailTransport = Readonly<{
  /** Resolves once the server accepted the mail; rejects with nodemailer's error (responseCode). */
  send: (mail: ComposedMail) => Promise<{ status: number | null }>;
  /** The folder mail is written to, without an SMTP server; null with one. */
  folder: string | null;
  close: () => void;
}>;

export const DKIM_HEADER_FIELDS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:' +
  'Content-Transfer-Encoding:List-Unsubscribe:List-Unsubscribe-Post';

const dkimOf = (settings: MailSettings) =>
  settings.dkim
    ? {
        dkim: {
          domainName: settings.dkim.domain,
          keySelector: settings.dkim.selector,
          // nodemailer hands the key to crypto's sign() as is, which takes a KeyObject; its types
          // name strings only.
          privateKey: settings.dkim.privateKey as unknown as string,
          headerFieldNames: DKIM_HEADER_FIELDS,
        },
      }
    : {};

const statusOf = (response: unknown): number | null => {
  const code = typeof response === 'string' ? Number.parseInt(response, 10) : NaN;
  return Number.isFinite(code) ? code : null;
};

/**
 * A few SMTP connections kept open and reused: one connection per mail would put 100,000
 * handshakes between an incident and its last mail. The query of MAIL_URL (`?pool=false`,
 * `?maxConnections=10`) overrides these: nodemailer merges the URL's parameters over them.
 */
const SMTP_POOL = { pool: true, maxConnections: 5, maxMessages: 1000 } as const;

const smtpTransport = (url: string, settings: MailSettings): MailTransport => {
  const transporter = nodemailer.createTransport({ url, ...SMTP_POOL, ...dkimOf(settings) });
  return {
    send: async (mail) => ({ status: statusOf((await transporter.sendMail(mail)).response) }),
    folder: null,
    close: () => transporter.close(),
  };
};

const fileTransport = (folder: string, settings: MailSettings): MailTransport => {
  const transporter = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    ...dkimOf(settings),
  });
  return {
    send: async (mail) => {
      const info = await transporter.sendMail(mail);
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.messageId.replace(/[^A-Za-z0-9_-]/g, '')}.eml`;
      writeFileSync(join(folder, name), info.message as Buffer, { mode: 0o600 });
      return { status: null };
    },
    folder,
    close: () => transporter.close(),
  };
};

/** The SMTP server of MAIL_URL, else files in MAIL_FOLDER, else none (sign-up is off). */
export const createMailTransport = (settings: MailSettings): MailTransport | null => {
  if (settings.url !== null) return smtpTransport(settings.url, settings);
  return settings.folder === null ? null : fileTransport(settings.folder, settings);
};

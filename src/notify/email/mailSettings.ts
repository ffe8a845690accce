// The mail settings of docs/operations.md: where mail goes (MAIL_URL), who it is from (MAIL_FROM),
// the DKIM key (MAIL_DKIM_*) and the links' signing secret (MAIL_TOKEN_SECRET). A bad or
// incomplete set stops the process with a message naming the variable.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError, parseSettings } from '../../config.ts';
import { z } from 'zod';

/** `privateKey` parsed once: a PEM string would be parsed again for every signature (3× its cost). */
export type DkimSettings = Readonly<{ domain: string; selector: string; privateKey: KeyObject }>;

export type MailSettings = Readonly<{
  /** smtp:// or smtps://; null: no SMTP server (mail goes to `folder`, or sign-up is off). */
  url: string | null;
  /** Without MAIL_URL: mail is written there as .eml files (`npm start`: .data/mail). */
  folder: string | null;
  from: string;
  /** MAIL_FROM's domain: the right-hand side of every Message-ID. */
  domain: string;
  dkim: DkimSettings | null;
  /** At least 32 characters; null: a key generated once and kept in PostgreSQL (mailKey.ts). */
  tokenSecret: string | null;
}>;

const Env = z.object({
  MAIL_URL: z
    .string()
    .refine((value) => /^smtps?:\/\/[^/]/.test(value), 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z
    .string()
    .refine((value) => domainOf(value) !== null, 'must be an address such as "Status <status@example.com>"')
    .optional(),
  MAIL_FOLDER: z.string().min(1).optional(),
  MAIL_DKIM_DOMAIN: z.string().min(1).optional(),
  MAIL_DKIM_SELECTOR: z.string().min(1).optional(),
  MAIL_DKIM_KEY_FILE: z.string().min(1).optional(),
  MAIL_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
});

/** The domain of `Name <local@domain>` or `local@domain`; null when there is none. */
export const domainOf = (from: string): string | null => {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
  const domain = /^[^\s@]+@([A-Za-z0-9.-]+)$/.exec(address)?.[1];
  return domain ?? null;
};

/** DKIM signs with RSA only (nodemailer): any other key would leave every mail unsigned. */
const rsaKeyOf = (pem: string): KeyObject => {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new ConfigError('Invalid settings:\n  MAIL_DKIM_KEY_FILE: not a PEM private key');
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new ConfigError(
      `Invalid settings:\n  MAIL_DKIM_KEY_FILE: an RSA key is needed, not ${String(key.asymmetricKeyType)}`,
    );
  return key;
};

const DKIM_NAMES = ['MAIL_DKIM_DOMAIN', 'MAIL_DKIM_SELECTOR', 'MAIL_DKIM_KEY_FILE'] as const;

const dkimOf = (e: z.infer<typeof Env>): DkimSettings | null => {
  const set = DKIM_NAMES.filter((name) => e[name] !== undefined);
  const { MAIL_DKIM_DOMAIN: domain, MAIL_DKIM_SELECTOR: selector, MAIL_DKIM_KEY_FILE: keyFile } = e;
  if (domain === undefined && selector === undefined && keyFile === undefined) return null;
  if (domain === undefined || selector === undefined || keyFile === undefined)
    throw new ConfigError(
      `Invalid settings:\n  ${DKIM_NAMES.filter((n) => !set.includes(n)).join(', ')}: required with ${set.join(', ')}`,
    );
  let pem: string;
  try {
    pem = readFileSync(keyFile, 'utf8');
  } catch (error) {
    throw new ConfigError(`Invalid settings:\n  MAIL_DKIM_KEY_FILE: ${(error as Error).message}`);
  }
  return { domain, selector, privateKey: rsaKeyOf(pem) };
};

/** `publicHost`: the host of PUBLIC_BASE_URL, MAIL_FROM's domain when it is not set. */
export const loadMailSettings = (env: NodeJS.ProcessEnv, publicHost: string): MailSettings => {
  const e = parseSettings(Env, env);
  const from = e.MAIL_FROM ?? `Status <status@${publicHost}>`;
  return {
    url: e.MAIL_URL ?? null,
    folder: e.MAIL_URL === undefined ? (e.MAIL_FOLDER ?? null) : null,
    from,
    domain: domainOf(from) ?? publicHost,
    dkim: dkimOf(e),
    tokenSecret: e.MAIL_TOKEN_SECRET ?? null,
  };
};

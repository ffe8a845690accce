import { domainToASCII } from 'node:url';
import { z } from 'zod';
import { LOCALES, parseLocale } from '../../projections/locale/locales.ts';
import { isKnownZone } from '../shared/timeZone.ts';

export const Plan = z.enum(['free', 'pro', 'growth', 'business', 'oss_hero', 'enterprise']);
export type Plan = z.infer<typeof Plan>;

const ASCII_HOSTNAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

// An internationalised name is welcome in either form: it is checked by its ASCII (punycode) form,
// the one requests name it by, and stored as sent.
const hostname = z
  .string()
  .max(253)
  .refine((value) => ASCII_HOSTNAME.test(domainToASCII(value)), 'invalid hostname');

/** An SLA target in percent: 0 < t ≤ 100 with at most 3 decimals (sla-reports.md). */
export const SlaTarget = z
  .number()
  .gt(0)
  .max(100)
  .refine((t) => Math.round(t * 1000) / 1000 === t, 'at most 3 decimals');

const SlaSettings = {
  time_zone: z.string().refine(isKnownZone, 'unknown time zone').optional(),
  sla_target: SlaTarget.optional(),
  sla_exclude_maintenance: z.boolean().optional(),
};

/** Alert notifications open and resolve incidents (`open`) or only record checks (`off`, the default). */
const AlertIncidents = z.enum(['off', 'open']);
const IntegrationSettings = { alert_incidents: AlertIncidents.optional() };

/** The page's language: a supported BCP 47 tag, any case (docs/status-page.md, "Languages"). */
export const UNSUPPORTED_LOCALE = `unsupported locale (one of ${LOCALES.join(', ')})`;
const PageLocale = {
  locale: z
    .string()
    .refine((tag) => parseLocale(tag) !== null, UNSUPPORTED_LOCALE)
    .optional(),
};
/** Stored in its canonical spelling (`pt-br` is stored `pt-BR`). */
const StoredPageLocale = { locale: z.enum(LOCALES).optional() };
/** Subscriber notifications (notifications.md): absent, a 60-minute reminder and a 60 s hold. */
const NotifySettings = {
  maintenance_reminder_minutes: z.number().int().min(0).max(10_080).optional(),
  state_hold_seconds: z.number().int().min(0).max(86_400).optional(),
};

/** What an agent sends: the token in plaintext. */
export const PageConfigured = z
  .object({
    title: z.string().min(1).max(500),
    plan: Plan,
    custom_domain: hostname.nullable().default(null),
    auth_token: z.string().min(16).max(200).nullable().default(null),
    blocked: z.boolean().default(false),
    ...SlaSettings,
    ...IntegrationSettings,
    ...PageLocale,
    ...NotifySettings,
  })
  .strict();

/** What the log holds: the token replaced by its SHA-256 digest. */
export const StoredPageConfigured = z
  .object({
    title: z.string(),
    plan: Plan,
    custom_domain: z.string().nullable(),
    auth_token_hash: z.string().nullable(),
    blocked: z.boolean(),
    ...SlaSettings,
    ...IntegrationSettings,
    ...StoredPageLocale,
    ...NotifySettings,
  })
  .strict();
export type StoredPageConfigured = z.infer<typeof StoredPageConfigured>;

export const PageDeleted = z.object({}).strict();

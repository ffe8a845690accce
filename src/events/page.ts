import { domainToASCII } from 'node:url';
import { z } from 'zod';

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

/** What an agent sends: the token in plaintext. */
export const PageConfigured = z
  .object({
    title: z.string().min(1).max(500),
    plan: Plan,
    custom_domain: hostname.nullable().default(null),
    auth_token: z.string().min(16).max(200).nullable().default(null),
    blocked: z.boolean().default(false),
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
  })
  .strict();
export type StoredPageConfigured = z.infer<typeof StoredPageConfigured>;

export const PageDeleted = z.object({}).strict();

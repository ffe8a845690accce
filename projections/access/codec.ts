// The `pg:<slug>:access` document: {"state":"active"|"blocked","plan":…,"token_hash":…,"title":…,"locale":…},
// or {"state":"deleted","plan":null,"token_hash":null} for a deleted (or never configured) page.
import { z } from 'zod';
import type { PageState } from '../types.ts';
import { Plan } from '../../src/events/page.ts';
import { DEFAULT_LOCALE, parseLocale, type Locale } from '../locale/locales.ts';
import { CorruptReadModel, parseStoredJson } from '../store/corruptReadModel.ts';

const AccessDoc = z.object({
  state: z.enum(['active', 'blocked', 'deleted']),
  plan: Plan.nullable(),
  token_hash: z.string().nullable(),
  title: z.string().optional(), // documents written by older versions have none
  locale: z.string().optional(), // absent: the default
});
type AccessDoc = z.infer<typeof AccessDoc>;

export type PageAccess =
  | Readonly<{ state: 'deleted' }>
  | Readonly<{
      state: 'active' | 'blocked';
      plan: Plan;
      tokenHash: string | null;
      title: string | null;
      locale: Locale;
    }>;

/** The document for a page's state; a page without state (or deleted) is "deleted". */
export const encodeAccess = (state: PageState | null): string =>
  JSON.stringify(
    state === null || state.deleted
      ? { state: 'deleted', plan: null, token_hash: null }
      : {
          state: state.settings.blocked ? 'blocked' : 'active',
          plan: state.settings.plan,
          token_hash: state.settings.tokenHash,
          title: state.settings.title,
          locale: state.settings.locale,
        },
  );

/** null for a missing document (unknown page). @throws CorruptReadModel on a malformed one */
export const decodeAccess = (text: string | null | undefined): PageAccess | null => {
  if (text === null || text === undefined) return null;
  const { state, plan, token_hash, title, locale } = parseStoredJson(AccessDoc, text, 'access document');
  if (state === 'deleted') return { state };
  if (plan === null) throw new CorruptReadModel(`access document of a ${state} page has no plan`);
  return {
    state,
    plan,
    tokenHash: token_hash,
    title: title ?? null,
    locale: parseLocale(locale ?? DEFAULT_LOCALE) ?? DEFAULT_LOCALE,
  };
};

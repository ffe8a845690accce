// The `pg:<slug>:access` document: the little every endpoint needs before it may answer. The
// projector keeps it for a deleted page as {"state":"deleted","plan":null,"token_hash":null}.
import { z } from 'zod';
import { Plan } from '../events/page.ts';

const AccessDoc = z.object({
  state: z.enum(['active', 'blocked', 'deleted']),
  plan: Plan.nullable(),
  token_hash: z.string().nullable(),
  title: z.string().optional(), // not in the contract yet; the /s/{slug} page falls back to the slug
});

export type PageAccess =
  | Readonly<{ state: 'deleted' }>
  | Readonly<{ state: 'active' | 'blocked'; plan: Plan; tokenHash: string | null; title: string | null }>;

export class CorruptReadModel extends Error {
  override readonly name = 'CorruptReadModel';
}

/** null for a missing document (unknown page). @throws CorruptReadModel on a malformed one */
export const parseAccess = (text: string | null | undefined): PageAccess | null => {
  if (text === null || text === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new CorruptReadModel('access document is not JSON', { cause });
  }
  const doc = AccessDoc.safeParse(json);
  if (!doc.success)
    throw new CorruptReadModel('access document has an unexpected shape', { cause: doc.error });
  const { state, plan, token_hash, title } = doc.data;
  if (state === 'deleted') return { state };
  if (plan === null) throw new CorruptReadModel(`access document of a ${state} page has no plan`);
  return { state, plan, tokenHash: token_hash, title: title ?? null };
};

// Who may write through an integration: INGEST_TOKEN (every page), or a live token created for
// the page (POST /v1/pages/{slug}/integration-tokens). A token of another page is refused.
import type { Request } from 'express';
import type { CommonQueryMethods } from 'slonik';
import { tokenMatches } from '../shared/hashToken.ts';
import { bearerToken } from '../shared/bearerToken.ts';
import { findToken } from './integrationTokens.ts';

/** `ingestTokenHash`: INGEST_TOKEN's digest, null when ingest is disabled. */
export const mayWriteTo = async (
  db: CommonQueryMethods,
  req: Request,
  page: string,
  ingestTokenHash: string | null,
): Promise<boolean> => {
  const presented = bearerToken(req.headers.authorization);
  if (presented === undefined) return false;
  if (ingestTokenHash !== null && tokenMatches(presented, ingestTokenHash)) return true;
  return (await findToken(db, presented, 'integration'))?.page === page;
};

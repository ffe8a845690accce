// Write builders of the custom-domain model, and the announcement of a change.
import type { PageRef } from '../page.ts';
import type { WriteOp } from '../redis/writeOps.ts';
import { encodeDomainClaim, type DomainClaim } from './codec.ts';
import { domainChangesChannel, domainClaimsKey } from './keys.ts';

export const putDomainClaim = ({ tag, slug }: PageRef, claim: DomainClaim): WriteOp => ({
  op: 'hset',
  key: domainClaimsKey(tag),
  fields: [[slug, encodeDomainClaim(claim)]],
});

export const dropDomainClaim = ({ tag, slug }: PageRef): WriteOp => ({
  op: 'hdel',
  key: domainClaimsKey(tag),
  field: slug,
});

/**
 * Tells the API processes that the claims of partition `tag` changed. Part of the fenced commit
 * that writes the claims: a subscriber that reloads on it finds them written, and a fenced-out
 * runner announces nothing.
 */
export const announceDomainChanges = (prefix: string, tag: string): WriteOp => ({
  op: 'publish',
  channel: domainChangesChannel(prefix),
  message: tag,
});

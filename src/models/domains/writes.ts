// Write builders of the custom-domain model, and the announcement of a change.
import type { Redis } from 'ioredis';
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
 * Tells the API processes that the claims of partition `tag` changed (after the commit: a
 * subscriber that reloads on this message finds them written).
 */
export const announceDomainChanges = async (redis: Redis, prefix: string, tag: string): Promise<void> => {
  await redis.publish(domainChangesChannel(prefix), tag);
};

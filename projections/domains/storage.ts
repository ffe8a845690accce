// Where the custom-domain model lives in Redis: per partition, the domain each of its pages
// claims, and the channel the projector announces a change of any of them on; write builders
// (with the announcement of a change). The typed read: src/readModels/domains/reads.ts.
import type { PageRef } from '../store/page.ts';
import type { WriteOp } from '../store/writeOps.ts';
import { type DomainClaim, encodeDomainClaim } from './codec.ts';

export const domainClaimsKey = (tag: string): string => `${tag}:domains`;

/** Pub/sub channel: the partition tag whose domain claims changed. */
export const domainChangesChannel = (prefix: string): string => `${prefix}:domains:changed`;

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

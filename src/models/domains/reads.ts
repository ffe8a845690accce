// Typed read of the custom-domain model.
import { hashGetAll, mapRead, type Read } from '../redis/reads.ts';
import { decodeDomainClaims, type DomainClaim } from './codec.ts';
import { domainClaimsKey } from './keys.ts';

export const domainClaimsRead = (tag: string): Read<Map<string, DomainClaim>> =>
  mapRead(hashGetAll(domainClaimsKey(tag)), decodeDomainClaims);

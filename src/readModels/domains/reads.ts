// The typed read of a partition's custom-domain claims (key and codec: projections/domains/), which
// the domain directory loads for every partition.
import { hashGetAll, mapRead, type Read } from '../../store/reads.ts';
import { decodeDomainClaims, type DomainClaim } from '../../../projections/domains/codec.ts';
import { domainClaimsKey } from '../../../projections/domains/storage.ts';

export const domainClaimsRead = (tag: string): Read<Map<string, DomainClaim>> =>
  mapRead(hashGetAll(domainClaimsKey(tag)), decodeDomainClaims);

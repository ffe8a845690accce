// Keys of the custom-domain model: per partition, the domain each of its pages claims; and the
// channel the projector announces a change of any of them on.
export const domainClaimsKey = (tag: string): string => `${tag}:domains`;

/** Pub/sub channel: the partition tag whose domain claims changed. */
export const domainChangesChannel = (prefix: string): string => `${prefix}:domains:changed`;

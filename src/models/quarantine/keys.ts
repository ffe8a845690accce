// Key of the quarantine of a partition: the pages whose projection or render failed, kept out of
// the way so the rest of the partition goes on (docs/architecture.md, "Quarantined pages").
export const quarantineKey = (tag: string): string => `${tag}:quarantine`;

// Keys of the control model: which version the API serves, each version's metadata, the rebuild
// lock, and per partition its checkpoint and the sets that drive rendering.
export const activeKey = (prefix: string): string => `${prefix}:active`;
export const versionMetaKey = (prefix: string, version: number): string => `${prefix}:v${version}:meta`;
export const versionSeqKey = (prefix: string): string => `${prefix}:version-seq`;
/**
 * The rebuild lock's hash tag is the active pointer's whole name, so both sit in one Redis Cluster
 * slot and the flip can compare the lock's token in the same script (src/store/activate.lua).
 */
export const rebuildLockKey = (prefix: string): string => `{${activeKey(prefix)}}:rebuild-lock`;
/** How far the running rebuild has got (src/store/control/rebuildProgress.ts). */
export const rebuildProgressKey = (prefix: string): string => `{${activeKey(prefix)}}:rebuild-progress`;

/** The hash-tagged prefix of one partition of one version. */
export const partitionTag = (prefix: string, version: number, partition: number): string =>
  `${prefix}:{v${version}.p${partition}}`;

/** Every key of every partition of a version matches this pattern (`{v1.p*` never matches v10). */
export const versionPattern = (prefix: string, version: number): string => `${prefix}:{v${version}.p*`;

/** Every partition key of every version, and how to tell which version a key belongs to. */
export const allVersionsPattern = (prefix: string): string => `${prefix}:{v*`;
export const versionMetaPattern = (prefix: string): string => `${prefix}:v*:meta`;
export const versionOfKey = (prefix: string, key: string): number | null => {
  const match = /^(?::\{v(\d+)\.p\d+\}:|:v(\d+):meta$)/.exec(key.slice(prefix.length));
  return match ? Number(match[1] ?? match[2]) : null;
};

export const partitionKeys = (tag: string) => ({
  checkpoint: `${tag}:ckpt`,
  /** Every page of the partition (the clock tick renders them all). */
  pages: `${tag}:pages`,
  /** Pages whose page-level outputs must be rendered again. */
  dirty: `${tag}:dirty`,
  dirtyIncidents: `${tag}:dirty:inc`,
  /** `<slug>|<incidentId>` whose incident changed: only its document, month and lists are written. */
  dirtyIncidentDocs: `${tag}:dirty:inc:docs`,
  dirtyMaintenances: `${tag}:dirty:mnt`,
  dirtyMaintenanceDocs: `${tag}:dirty:mnt:docs`,
  /** `<slug>|<monitorId>` whose availability must be rendered again. */
  dirtyAvailability: `${tag}:dirty:avail`,
  /** `<slug>` scored by when its maintenances or availability next change by the clock alone. */
  due: `${tag}:due`,
  /** The minute (epoch ms) of the last clock render. */
  tick: `${tag}:tick`,
  /**
   * The purge outbox: surrogate keys a commit made stale at the edge, `h:<key>` (hard) or
   * `s:<key>` (soft), scored by when first queued (ms); written in the commit that makes them stale.
   */
  purges: `${tag}:purge`,
  /** Purges a drainer took: `<queued ms>|<member>`, scored by when they may be taken again. */
  purgesClaimed: `${tag}:purge:claimed`,
  /** Who holds each claim: claimed member → the drainer's id (its heartbeat: `purgerAliveKey`). */
  purgesOwners: `${tag}:purge:owners`,
  /** Pub/sub channel (not a key): the slug of each page whose embed or access changed. */
  changes: `${tag}:changes`,
});

/** PSUBSCRIBE pattern matching the `changes` channel of every partition of every version. */
export const changesPattern = (prefix: string): string => `${prefix}:{*}:changes`;

/** A purge drainer's heartbeat: present while it runs (src/edge/purgerHeartbeat.ts). */
export const purgerAliveKey = (prefix: string, id: string): string => `${prefix}:purger:${id}`;

/** BullMQ needs its own hash tag so a queue's keys stay in one Cluster slot. */
export const queuePrefix = (prefix: string): string => `{${prefix}-q}`;
export const PROJECTOR_QUEUE = 'projector';

// Key names of the read models (docs/read-models.md). One builder for the projector and the API,
// so the two can never disagree on a name.
export type ActiveVersion = Readonly<{ version: number; partitions: number }>;

export const activeKey = (prefix: string): string => `${prefix}:active`;
export const versionMetaKey = (prefix: string, version: number): string => `${prefix}:v${version}:meta`;

export const formatActive = (active: ActiveVersion): string => `${active.version}:${active.partitions}`;
export const parseActive = (text: string | null): ActiveVersion | null => {
  const match = text ? /^(\d+):(\d+)$/.exec(text) : null;
  return match ? { version: Number(match[1]), partitions: Number(match[2]) } : null;
};

/** The hash-tagged prefix of one partition of one version. */
export const partitionTag = (prefix: string, version: number, partition: number): string =>
  `${prefix}:{v${version}.p${partition}}`;

export const partitionKeys = (tag: string) => ({
  checkpoint: `${tag}:ckpt`,
  /** Every page of the partition (the clock tick renders them all). */
  pages: `${tag}:pages`,
  /** Pages whose page-level outputs must be rendered again. */
  dirty: `${tag}:dirty`,
  dirtyIncidents: `${tag}:dirty:inc`,
  dirtyMaintenances: `${tag}:dirty:mnt`,
  /** `<slug>|<monitorId>` whose availability must be rendered again. */
  dirtyAvailability: `${tag}:dirty:avail`,
  /** `<slug>` scored by when its maintenances or availability next change by the clock alone. */
  due: `${tag}:due`,
  /** The minute (epoch ms) of the last clock render. */
  tick: `${tag}:tick`,
  /** Pub/sub channel: the slug of each page whose embed or access changed (live streams). */
  changes: `${tag}:changes`,
});

export const pageKeys = (tag: string, slug: string) => {
  const p = `${tag}:pg:${slug}`;
  return {
    state: `${p}:state`,
    updated: `${p}:updated`,
    maintenanceMonths: `${p}:mnt:months`,
    access: `${p}:access`,
    charts: `${p}:charts`,
    minute: `${p}:minute`,
    embed: `${p}:embed`,
    snippets: `${p}:snippets`,
    overall: `${p}:overall`,
    incidentList: `${p}:inc:list`,
    incidentMonth: (month: string) => `${p}:inc:m:${month}`,
    incidentDocs: `${p}:inc:docs`,
    incidentCounts: `${p}:inc:counts`,
    maintenanceList: `${p}:mnt:list`,
    maintenanceStatus: (status: string) => `${p}:mnt:s:${status}`,
    maintenanceMonth: (month: string) => `${p}:mnt:m:${month}`,
    maintenanceDocs: `${p}:mnt:docs`,
    maintenanceCounts: `${p}:mnt:counts`,
    availability: (monitorId: number) => `${p}:avail:${monitorId}`,
    /** Hash: `atom`, `rss` (bytes) and `modified` (epoch ms of Last-Modified). */
    feeds: `${p}:feeds`,
    /** Hash: Statuspage API v2 document name (`summary`, `incidents/unresolved`, …) → bytes. */
    statuspage: `${p}:sp`,
    /** Every key of the page matches this pattern (SCAN on page deletion). */
    pattern: `${p}:*`,
  };
};

export const monitorKeys = (tag: string, monitorId: number) => {
  const m = `${tag}:mon:${monitorId}`;
  return {
    timeline: `${m}:tl`,
    recent: `${m}:recent`,
    down: `${m}:down`,
    minutes: (day: number) => `${m}:min:${day}`,
    hours: (day: number) => `${m}:hr:${day}`,
    pattern: `${m}:*`,
  };
};

/** PSUBSCRIBE pattern matching the `changes` channel of every partition of every version. */
export const changesPattern = (prefix: string): string => `${prefix}:{*}:changes`;

/** BullMQ needs its own hash tag so a queue's keys stay in one Cluster slot. */
export const queuePrefix = (prefix: string): string => `{${prefix}-q}`;
export const PROJECTOR_QUEUE = 'projector';

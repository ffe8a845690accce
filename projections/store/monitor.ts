// A monitor's source aggregates (timeline, buckets) live under one prefix inside its page's
// partition hash tag.
export type MonitorRef = Readonly<{ tag: string; monitorId: number }>;

export const monitorPrefix = (monitor: MonitorRef): string => `${monitor.tag}:mon:${monitor.monitorId}`;

/** Every key of the monitor matches this pattern. */
export const monitorKeyPattern = (monitor: MonitorRef): string => `${monitorPrefix(monitor)}:*`;

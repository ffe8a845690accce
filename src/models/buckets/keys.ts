// Keys of a monitor's buckets: one hash of minute buckets and one of hour buckets per UTC day
// (`day` = epoch ms ÷ 86,400,000).
import { monitorPrefix, type MonitorRef } from '../monitor.ts';

export const bucketKeys = (monitor: MonitorRef) => {
  const m = monitorPrefix(monitor);
  return { minutes: (day: number) => `${m}:min:${day}`, hours: (day: number) => `${m}:hr:${day}` };
};

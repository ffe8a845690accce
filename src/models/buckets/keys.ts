// Keys of a monitor's buckets: one hash of minute buckets per half-hour slot (`slot` = epoch ms ÷
// 1,800,000) and one hash of hour buckets per UTC day (`day` = epoch ms ÷ 86,400,000).
import { monitorPrefix, type MonitorRef } from '../monitor.ts';

export const bucketKeys = (monitor: MonitorRef) => {
  const m = monitorPrefix(monitor);
  return { minutes: (slot: number) => `${m}:min30:${slot}`, hours: (day: number) => `${m}:hr:${day}` };
};

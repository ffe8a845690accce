// Keys of a monitor's timeline: the head (latest check, open failure), the recent checks a late
// arrival may need (one sorted set per hour, and the newest older check as the anchor), the
// closed failures and their per-day summaries.
import { monitorPrefix, type MonitorRef } from '../store/monitor.ts';

export const timelineKeys = (monitor: MonitorRef) => {
  const m = monitorPrefix(monitor);
  return {
    head: `${m}:tl`,
    recent: (hour: number) => `${m}:recent:${hour}`,
    recentAnchor: `${m}:anchor`,
    down: `${m}:down`,
    downDays: `${m}:down:days`,
  };
};

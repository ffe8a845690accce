// Keys of a monitor's timeline: the head (latest check, open failure), the recent checks a late
// arrival may need, and the closed failures.
import { monitorPrefix, type MonitorRef } from '../monitor.ts';

export const timelineKeys = (monitor: MonitorRef) => {
  const m = monitorPrefix(monitor);
  return { head: `${m}:tl`, recent: `${m}:recent`, down: `${m}:down` };
};

// Removing a monitor (or its page) drops its history: a monitor configured again later starts
// fresh. Its minute and hour buckets live under day keys, which expire within days anyway.
import { monitorKeys } from '../readModels/keys.ts';
import { DAY_MS } from '../shared/time.ts';
import type { CommandList } from './commands.ts';

export const deleteMonitorCommands = (
  out: CommandList,
  tag: string,
  monitorId: number,
  now: number,
): void => {
  const keys = monitorKeys(tag, monitorId);
  out.push('DEL', keys.timeline, keys.recent, keys.down);
  const today = Math.floor(now / DAY_MS);
  for (let day = today - 4; day <= today + 1; day += 1) out.push('DEL', keys.minutes(day), keys.hours(day));
};

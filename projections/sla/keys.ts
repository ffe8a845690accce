// Keys of the SLA model (docs/read-models.md, "SLA reports"): per page a small meta document and
// one hash per local year of complete months' summaries; per partition the pages whose summaries
// must be computed again, when each page's current month completes, and the clock's instant.
import { pagePrefix, type PageRef } from '../store/page.ts';

/** `{"time_zone", "current"}`: the zone of the stored summaries and the month they stop before. */
export const slaMetaKey = (page: PageRef): string => `${pagePrefix(page)}:sla`;

/** The summaries of the complete months of one local year. */
export const slaYearKey = (page: PageRef, year: number): string => `${pagePrefix(page)}:sla:${String(year)}`;

export const slaPartitionKeys = (tag: string) => ({
  /** `<slug>` scored by the earliest instant whose reports changed (0: all of them). */
  dirty: `${tag}:sla:dirty`,
  /** `<slug>` scored by the instant its current local month completes (its summary is due). */
  due: `${tag}:sla:due`,
  /** The instant (epoch ms, whole seconds) current reports are made at: the clock's, once a minute. */
  tick: `${tag}:sla:tick`,
});

export const summaryField = (month: string): string => `sum:${month}`;

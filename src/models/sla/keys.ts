// Keys of the SLA model (docs/read-models.md, "SLA reports"): per page a small meta document and
// one hash per local year of reports; per partition the pages whose reports must be rendered again.
import { pagePrefix, type PageRef } from '../page.ts';

/** `{"time_zone", "current"}`: what the API needs to read and check a period. */
export const slaMetaKey = (page: PageRef): string => `${pagePrefix(page)}:sla`;

/** The reports of the periods of one local year, their CSVs, and the month summaries. */
export const slaYearKey = (page: PageRef, year: number): string => `${pagePrefix(page)}:sla:${String(year)}`;

export const slaPartitionKeys = (tag: string) => ({
  /** `<slug>` scored by the earliest instant whose reports changed (0: all of them). */
  dirty: `${tag}:sla:dirty`,
  /** The minute (epoch ms) of the last render of every page's current periods. */
  tick: `${tag}:sla:tick`,
});

export const reportField = (period: string): string => period;
export const csvField = (period: string): string => `${period}.csv`;
export const summaryField = (month: string): string => `sum:${month}`;

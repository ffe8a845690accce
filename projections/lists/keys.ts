// Keys of the list models (incidents and maintenances of a page): the whole list, per month and
// (maintenances) per status, the documents by id, and the daily counts per month.
import type { MaintenanceStatus } from '../types.ts';
import { pagePrefix, type PageRef } from '../store/page.ts';

export type ListKeys = Readonly<{
  list: string;
  month: (month: string) => string;
  docs: string;
  counts: string;
}>;

export const incidentKeys = (page: PageRef): ListKeys => {
  const p = `${pagePrefix(page)}:inc`;
  return { list: `${p}:list`, month: (month) => `${p}:m:${month}`, docs: `${p}:docs`, counts: `${p}:counts` };
};

export const maintenanceKeys = (page: PageRef) => {
  const p = `${pagePrefix(page)}:mnt`;
  return {
    list: `${p}:list`,
    month: (month: string) => `${p}:m:${month}`,
    docs: `${p}:docs`,
    counts: `${p}:counts`,
    status: (status: MaintenanceStatus) => `${p}:s:${status}`,
    /** The months the last render wrote, so the next one can clear them. */
    months: `${p}:months`,
  } satisfies ListKeys & Record<string, unknown>;
};

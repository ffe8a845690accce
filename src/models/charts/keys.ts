// Keys of the charts model: the whole charts response and the whole minute-data response.
import { pagePrefix, type PageRef } from '../page.ts';

export const chartKeys = (page: PageRef) => {
  const p = pagePrefix(page);
  return { charts: `${p}:charts`, minute: `${p}:minute` };
};

export type ChartModel = keyof ReturnType<typeof chartKeys>;

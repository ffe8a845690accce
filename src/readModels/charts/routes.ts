// GET /api/status/{slug}/charts and GET /api/status-page/{slug}/minute-data, assembled when read
// from the monitors' bounded series.
import type { Request, Response } from 'express';
import { renderCharts, renderMinuteData } from '../../../projections/charts/charts.ts';
import { pageKeys } from '../../edge/surrogateKeys.ts';
import { ApiError } from '../../http/errors.ts';
import { admit, chartRules, parseSlug, type RouteDeps } from '../access/pageGate.ts';
import { cacheControl, cacheFor, sendBody } from '../../http/send.ts';
import { etagOf } from '../../../projections/store/bytes.ts';
import { storedSize, type SeriesRead, type StoredRead } from '../pageReads.ts';
import { isOverall } from '../../shared/overallStatus.ts';
import { MINUTE_MS } from '../../shared/time.ts';
import type { Route } from '../../http/routeTable.ts';

export type ChartModel = 'charts' | 'minute';

/** The answer's body at the read's instant; null while the page's status is not rendered yet (a rebuild under way). */
export const assembleChart = (model: ChartModel, read: SeriesRead): string | null => {
  const { monitors, overall, instant: now } = read;
  if (monitors === null || !isOverall(overall)) return null;
  const body =
    model === 'charts' ? renderCharts({ monitors, overall }, now) : renderMinuteData(monitors, now);
  return JSON.stringify(body);
};

export const chartRoutes = ({ reads, locate, cache, clock }: RouteDeps): Route[] => {
  const assembled = (model: ChartModel) => async (req: Request, res: Response) => {
    const slug = parseSlug(req.params['slug'], 'status_page_not_found');
    const page = await locate(slug);
    const clockNow = clock().getTime();
    // A new minute is a new entry: the windows shift with it even when nothing was projected.
    const read = await cache.get(page, `${model}|${Math.floor(clockNow / MINUTE_MS)}`, {
      load: async (): Promise<StoredRead> => {
        const series = await reads.series(page, clockNow);
        const body = assembleChart(model, series);
        return {
          access: series.access,
          stored: body === null ? null : { etag: etagOf(body), body: Buffer.from(body, 'utf8') },
        };
      },
      bytes: storedSize,
    });
    const { isPrivate } = await admit(read.access, req, chartRules);
    if (read.stored === null) throw new ApiError('service_unavailable'); // page known, status not rendered yet
    sendBody(req, res, {
      ...read.stored,
      cacheControl: cacheFor(isPrivate, cacheControl.noStore),
      from: read,
      edge: { keys: pageKeys(slug, true), lifetime: 'minute' },
      settled: cache.isSettled(read),
    });
  };
  return [
    { path: '/api/status/:slug/charts', handle: assembled('charts'), undecodable: 'status_page_not_found' },
    {
      path: '/api/status-page/:slug/minute-data',
      handle: assembled('minute'),
      undecodable: 'status_page_not_found',
    },
  ];
};

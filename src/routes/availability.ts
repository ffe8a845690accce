// GET /api/status-pages/{slug}/monitors/{monitorID}/availability: one stored response per monitor
// and period. An unknown monitor outranks a bad period (decisions.md, "HTTP"), so the monitor's
// existence is read even when the period is invalid.
import { Router } from 'express';
import { ApiError, undecodablePathAs } from '../http/errors.ts';
import { admit, availabilityRules, parseSlug, type RouteDeps } from '../http/pageGate.ts';
import { MonitorIdPath, PeriodQuery } from '../http/schemas.ts';
import { cacheControl, cacheFor, sendBody } from '../http/send.ts';

export const availabilityRoutes = ({ reads, locate }: RouteDeps): Router =>
  Router()
    .get('/api/status-pages/:slug/monitors/:monitorID/availability', async (req, res) => {
      const slug = parseSlug(req.params.slug, 'not_found');
      const monitorId = MonitorIdPath.safeParse(req.params.monitorID);
      const query = PeriodQuery.safeParse(req.query);
      const read = await reads.availability(
        await locate(slug),
        monitorId.success ? monitorId.data : null,
        query.success ? query.data.period : null,
      );
      const { isPrivate } = admit(read.access, req.query, availabilityRules);
      if (!read.monitorExists) throw new ApiError('not_found');
      if (!query.success) throw new ApiError('invalid_period');
      if (read.stored === null) throw new ApiError('service_unavailable'); // monitor known, period not rendered
      sendBody(req, res, { ...read.stored, cacheControl: cacheFor(isPrivate, cacheControl.lists) });
    })
    .use(undecodablePathAs('not_found'));

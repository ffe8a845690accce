// GET /api/embed/stream: the embed status as Server-Sent Events, with the rules and errors of
// GET /api/embed/status.
import type { Request } from 'express';
import { ApiError } from '../../http/errors.ts';
import { admit, pageRules, requestToken, type RouteDeps } from '../access/pageGate.ts';
import { EmbedStatusQuery } from '../../http/schemas.ts';
import type { SubscriptionReads } from '../subscriptionReads.ts';
import type { ChangeHub } from './changeHub.ts';
import { within } from './streamLimits.ts';
import { clientKey } from '../../http/clientKey.ts';
import { eventId, statusEvent, writeEvent, type StreamClient } from './streamClient.ts';
import { embedBody, needsSeries, withFigures } from './embedBody.ts';
import { MINUTE_MS, floorTo } from '../../shared/time.ts';
import { asksForExtras, embedSlug } from './routes.ts';
import type { Route } from '../../http/routeTable.ts';

const lastEventId = (req: Request): number => {
  const header = req.headers['last-event-id'];
  return typeof header === 'string' && /^\d{1,16}$/.test(header.trim()) ? Number(header.trim()) : 0;
};

export const embedStreamRoutes = (
  { locate }: RouteDeps,
  reads: SubscriptionReads,
  hub: ChangeHub,
): Route[] => [
  {
    path: '/api/embed/stream',
    handle: async (req, res) => {
      const slug = embedSlug(req);
      // Counted from here until the response closes, whatever happens in between (streamLimits.ts).
      hub.slots.take(clientKey(req.ip), res);
      let closed = false;
      res.once('close', () => (closed = true));
      const gone = (): boolean => closed;
      // Subscribed before the read: a change after it is never lost. Not waited for without a bound.
      await within(hub.ready(), hub.limits.hubWaitMs);
      if (gone()) return;
      const changesBefore = hub.seen(slug);
      const page = await locate(slug);
      if (gone()) return;
      const query = EmbedStatusQuery.safeParse(req.query);
      const now = hub.clock().getTime();
      const series = query.success && needsSeries(query.data);
      const read = await reads.embedStream(page, now, series);
      if (gone()) return; // nothing is registered for a client that left
      const { plan } = await admit(read.access, req, pageRules);
      if (plan === 'free') throw new ApiError('embeds_not_in_plan');
      if (plan === 'pro' && asksForExtras(req)) throw new ApiError('plan_inc_rtm_upd');
      if (!query.success) throw new ApiError('invalid_parameters');
      const body = embedBody(withFigures(read, read.instant), query.data);
      const token = requestToken(req);
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no', // proxies must not hold events back
      });
      res.flushHeaders();
      req.socket.setNoDelay(true);
      const client: StreamClient = {
        slug,
        query: query.data,
        token,
        res,
        lastId: lastEventId(req),
        endsAt: hub.endsAt(),
      };
      hub.add(client);
      const id = eventId({ ...read, minute: floorTo(now, MINUTE_MS) }, query.data);
      if (id > client.lastId) writeEvent(client, id, statusEvent(id, body));
      if (hub.seen(slug) !== changesBefore) void hub.refresh(slug); // changed while we read
    },
  },
];

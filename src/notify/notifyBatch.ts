// One step of the notifier over the log: read after its checkpoint (gap-free), plan, and in ONE
// transaction insert the outbox rows, the monitors' tracked states and the moved checkpoint. The
// checkpoint row is locked and compared with the one the batch was read from: a second notifier
// that got there first makes this batch a no-op, and a crash before the commit plans it again.
// The notices are computed once; the subscribers are read, planned and written a chunk at a time.
import { isNews } from '../../projections/notify/isNews.ts';
import { incidentThread } from '../../projections/notify/notice.ts';
import { planChunk } from '../../projections/notify/planChunk.ts';
import { logBatchNotices, type NotifyEvent } from '../../projections/notify/planLogBatch.ts';
import type { UrlSettings } from '../../projections/types.ts';
import type { Db } from '../eventLog/createDb.ts';
import { formatCheckpoint, readAfter } from '../eventLog/readAfter.ts';
import { parseRows } from '../projector/parseRows.ts';
import { insertPlanned } from './insertPlanned.ts';
import { loadNotifyPages } from './loadNotifyPages.ts';
import { lockCheckpoint, readCheckpoint, saveCheckpoint } from './notifierCheckpoint.ts';
import { subscribedPages } from './subscribedPages.ts';
import { forEachSubscriberChunk, SUBSCRIBER_CHUNK } from './subscriberChunks.ts';
import { readThreadHeads } from './threadHeads.ts';
import { readTracked, writeTracked } from './trackedMonitors.ts';

export type NotifyBatchDeps = Readonly<{
  db: Db;
  urls: UrlSettings;
  coalesceMs: number;
  batchSize: number;
  /** Subscribers planned at once (SUBSCRIBER_CHUNK). */
  subscriberChunk?: number;
}>;

/** `read`: log rows read (0: caught up); `planned`: outbox rows inserted; `fenced`: another notifier moved first. */
export type BatchResult = Readonly<{ read: number; planned: number; fenced: boolean }>;

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

export const notifyBatch = async (deps: NotifyBatchDeps): Promise<BatchResult> => {
  const from = await readCheckpoint(deps.db);
  const { rows, scannedTo } = await readAfter(deps.db, from, { limit: deps.batchSize });
  if (scannedTo === null) return { read: 0, planned: 0, fenced: false };
  const recordedAt = new Map(rows.map((row) => [row.position, row.recordedAt]));
  const all: NotifyEvent[] = parseRows(rows).events.map((event) => ({
    event,
    recordedAt: recordedAt.get(event.position) ?? event.at,
  }));
  return deps.db.transaction(async (tx) => {
    if (formatCheckpoint(await lockCheckpoint(tx)) !== formatCheckpoint(from))
      return { read: rows.length, planned: 0, fenced: true };
    const newsPages = unique(
      all
        .filter(({ event, recordedAt }) => event.type !== 'check.recorded' && isNews(event.at, recordedAt))
        .map(({ event }) => event.page),
    );
    const planned = new Set(await subscribedPages(tx, newsPages));
    // Only pages somebody hears from are folded; checks move the monitors' tracked states.
    const events = all.filter(({ event }) => event.type === 'check.recorded' || planned.has(event.page));
    const threads = unique(
      events.flatMap(({ event }) =>
        event.type === 'incident.opened' || event.type === 'incident.updated'
          ? [incidentThread(event.page, event.data.incident_id)]
          : [],
      ),
    );
    const checks = events.flatMap(({ event, recordedAt }) =>
      event.type === 'check.recorded' && isNews(event.at, recordedAt)
        ? [{ page: event.page, monitorId: event.data.monitor_id }]
        : [],
    );
    const { notices, monitors } = logBatchNotices({
      events,
      pages: await loadNotifyPages(tx, [...planned], from),
      monitors: await readTracked(tx, checks),
      urls: deps.urls,
    });
    let inserted = 0;
    const noticePages = unique(notices.map(({ slug }) => slug));
    await forEachSubscriberChunk(tx, noticePages, deps.subscriberChunk ?? SUBSCRIBER_CHUNK, async (chunk) => {
      const heads = await readThreadHeads(tx, threads, chunk.ids);
      inserted += await insertPlanned(tx, planChunk(notices, chunk.byPage, heads, deps.coalesceMs));
    });
    await writeTracked(tx, monitors);
    await saveCheckpoint(tx, scannedTo);
    return { read: rows.length, planned: inserted, fenced: false };
  });
};

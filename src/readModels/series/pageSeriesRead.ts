// A page's monitors with their bounded series, for the answers assembled when read, in two round
// trips.
import type { MonitorConfig, MonitorSnapshot } from '../../../projections/types.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { decodePage } from '../../../projections/pageState/codec.ts';
import { pageStateKeys } from '../../../projections/pageState/keys.ts';
import { getString, listRead, mapRead, runRead, type Read } from '../../store/reads.ts';
import type { RedisClient } from '../../store/redisClient.ts';
import { monitorSnapshotRead } from './monitorSnapshotRead.ts';

const byId = (a: MonitorConfig, b: MonitorConfig) => a.id - b.id;

/** The page's monitor configs by id; null for a page without a document or a deleted one. */
export const monitorConfigsRead = (page: PageRef): Read<MonitorConfig[] | null> =>
  mapRead(getString(pageStateKeys(page).state), (core) => {
    const decoded = decodePage({ core, updated: null, incidents: {}, maintenances: {} });
    if (decoded === null || decoded.state.deleted) return null;
    return Object.values(decoded.state.monitors).sort(byId);
  });

/** Every monitor's series at `now`, in the order of `configs`. */
export const readMonitorSeries = (
  redis: RedisClient,
  page: PageRef,
  configs: readonly MonitorConfig[],
  now: number,
): Promise<MonitorSnapshot[]> =>
  configs.length === 0
    ? Promise.resolve([])
    : runRead(redis, listRead(configs.map((config) => monitorSnapshotRead(page.tag, config, now))));

/** The series at `at` when asked for (an instant) and the page has monitors' configs; else null. */
export const seriesIfAsked = (
  redis: RedisClient,
  page: PageRef,
  configs: readonly MonitorConfig[] | null,
  at: number | null,
): Promise<MonitorSnapshot[] | null> =>
  at === null || configs === null ? Promise.resolve(null) : readMonitorSeries(redis, page, configs, at);

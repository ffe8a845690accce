// A page's monitors with their bounded series at the page's assembly instant, for the answers
// assembled when read, all from one state of the store (docs/architecture.md, "Answers assembled
// when read").
import type { MonitorConfig, MonitorSnapshot } from '../../../projections/types.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { decodePage, decodeUpdated } from '../../../projections/pageState/codec.ts';
import { pageStateKeys } from '../../../projections/pageState/keys.ts';
import { assemblyInstant } from '../../http/assemblyClock.ts';
import { ApiError } from '../../http/errors.ts';
import { getString, known, listRead, runRead, tupleRead, type Read } from '../../store/reads.ts';
import type { RedisClient } from '../../store/redisClient.ts';
import { runPartitionReadAtOnce } from '../../store/partitionReads.ts';
import { monitorSnapshotRead } from './monitorSnapshotRead.ts';

const byId = (a: MonitorConfig, b: MonitorConfig) => a.id - b.id;

/** The monitor configs by id of a stored core; null for a page without a document or a deleted one. */
const configsOf = (core: string | null): MonitorConfig[] | null => {
  const decoded = decodePage({ core, updated: null, incidents: {}, maintenances: {} });
  if (decoded === null || decoded.state.deleted) return null;
  return Object.values(decoded.state.monitors).sort(byId);
};

/** What names the keys and the instant of a page's series read: its core and its latest event time. */
const basisRead = (page: PageRef): Read<readonly [core: string | null, updated: string | null]> => {
  const keys = pageStateKeys(page);
  return tupleRead([getString(keys.state), getString(keys.updated)]);
};

/** A read at the page's instant: the series (null without monitors' configs or when not asked) and `rest`. */
export type AtInstant<T> = Readonly<{
  instant: number;
  /** The page's latest event (the embed's `updated`). */
  updatedAt: number | null;
  core: string | null;
  monitors: MonitorSnapshot[] | null;
  rest: T;
}>;

// A page whose core or latest event moves between the two reads every time, this many times over,
// is answered 503: a page changes a few times a second, and the reads are a millisecond apart.
const MAX_ATTEMPTS = 20;

/**
 * The monitors' series at the page's assembly instant (assemblyInstant) and `rest`, in one atomic
 * read (one script call, or a MULTI), so every part comes from one log position. A first read of
 * the page's core and latest event names the keys and the instant; the atomic read takes them
 * again and is kept only when they did not move in between (else it goes again from what it found).
 */
export const readAtInstant = async <T>(
  redis: RedisClient,
  page: PageRef,
  read: Readonly<{
    clockNow: number;
    series: boolean;
    /** Read with the series, in the same atomic read. */
    rest: Read<T>;
  }>,
): Promise<AtInstant<T>> => {
  // Without the series no key depends on the core or the instant: one atomic read is all.
  let basis = read.series ? await runRead(redis, basisRead(page)) : null;
  for (let attempt = 1; ; attempt += 1) {
    const [core, updated] = basis ?? [null, null];
    const configs = basis === null ? null : configsOf(core);
    const updatedAt = decodeUpdated(updated);
    const instant = assemblyInstant(read.clockNow, updatedAt);
    const series =
      configs === null
        ? known(null)
        : listRead(configs.map((c) => monitorSnapshotRead(page.tag, c, instant)));
    const [again, monitors, rest] = await runPartitionReadAtOnce(
      redis,
      page.tag,
      tupleRead([basisRead(page), series, read.rest]),
    );
    if (basis === null) {
      const stored = decodeUpdated(again[1]);
      return {
        instant: assemblyInstant(read.clockNow, stored),
        updatedAt: stored,
        core: again[0],
        monitors,
        rest,
      };
    }
    if (again[0] === core && again[1] === updated) return { instant, updatedAt, core, monitors, rest };
    if (attempt === MAX_ATTEMPTS) throw new ApiError('service_unavailable');
    basis = again;
  }
};

// The partitions whose purge outboxes a worker drains: those of the version the API serves.
import { partitionTag } from '../../projections/store/control/keys.ts';
import type { ActiveVersionReader } from '../store/control/activeVersionReader.ts';
import type { LivePartitions } from './edgePurger.ts';

export const activePartitions =
  (active: ActiveVersionReader, prefix: string) => async (): Promise<LivePartitions | null> => {
    const version = await active();
    if (version === null) return null;
    const tags = Array.from({ length: version.partitions }, (_, p) =>
      partitionTag(prefix, version.version, p),
    );
    return { version: version.version, tags };
  };

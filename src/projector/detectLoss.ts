// Tells data that Redis lost from a retired version or a deleted page, so the job rebuilds instead
// (docs/architecture.md, "Versions and rebuilds": "Partial loss").
import type { RedisClient } from '../store/redisClient.ts';
import type { PageState } from '../../projections/types.ts';
import type { ProjectedEvent } from '../events/storedEvent.ts';
import { checkpointRead } from '../store/control/reads.ts';
import { partitionTag } from '../../projections/store/control/keys.ts';
import { readActive } from '../store/control/versions.ts';
import { quarantineRead } from '../readModels/quarantine/reads.ts';
import { runRead } from '../store/reads.ts';

export type LossKind = 'checkpoint' | 'page_state';

export class ModelsLost extends Error {
  override readonly name = 'ModelsLost';
  readonly kind: LossKind;
  readonly tag: string;
  readonly pages: readonly string[];
  constructor(kind: LossKind, tag: string, pages: readonly string[] = []) {
    super(
      kind === 'checkpoint'
        ? `the checkpoint of ${tag} is missing while its version is active: its models were lost`
        : `page ${pages.join(', ')} of ${tag} has events but no document: its models were lost`,
    );
    this.kind = kind;
    this.tag = tag;
    this.pages = pages;
  }
}

/**
 * Pages of the batch whose first event needs a document that is missing (and which no quarantine
 * explains: a page whose `page.configured` could not be applied has none, by design).
 */
export const lostPages = async (
  redis: RedisClient,
  tag: string,
  events: readonly ProjectedEvent[],
  states: ReadonlyMap<string, PageState | null>,
): Promise<string[]> => {
  const first = new Map<string, ProjectedEvent>();
  for (const event of events) if (!first.has(event.page)) first.set(event.page, event);
  const missing = [...first.values()]
    .filter((event) => event.type !== 'page.configured' && (states.get(event.page) ?? null) === null)
    .map((event) => event.page);
  if (missing.length === 0) return [];
  const quarantined = await runRead(redis, quarantineRead(tag));
  return missing.filter((page) => !quarantined.has(page));
};

/** A fenced run's reason, read afresh: the active version's checkpoint is gone. */
export const checkpointLost = async (
  redis: RedisClient,
  ref: Readonly<{ prefix: string; version: number; partition: number }>,
): Promise<boolean> => {
  const active = await readActive(redis, ref.prefix);
  if (active?.version !== ref.version) return false; // retired by a rebuild: a true fence
  const tag = partitionTag(ref.prefix, ref.version, ref.partition);
  return (await runRead(redis, checkpointRead(tag))) === null;
};

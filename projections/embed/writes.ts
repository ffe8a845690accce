// Write builders of the embed model.
import type { OverallStatus } from '../../src/shared/overallStatus.ts';
import { toBytes } from '../store/bytes.ts';
import type { PageRef } from '../store/page.ts';
import { setOp, type WriteOp } from '../store/writeOps.ts';
import { embedChangedMessage, renderedMessage } from '../store/changes.ts';
import { embedKeys, encodeEmbed, type EmbedParts } from './codec.ts';
import { partitionKeys } from '../store/control/keys.ts';

/**
 * The parts, versioned: only changed fields are written, each stamped with a new revision, and the
 * page's slug is published on `channel` when anything changed (live streams). The access document
 * rides along so that a change of access also reaches the streams. Every page render writes this,
 * so when nothing in it changed the render is announced all the same (`renderedMessage`): the API
 * processes' response caches mark the page's other bodies stale (changes.ts).
 */
export const putEmbed = (
  page: PageRef,
  parts: EmbedParts,
  stamp: Readonly<{ now: number; channel: string; access: string }>,
): WriteOp => ({
  op: 'hsetVersioned',
  key: embedKeys(page).embed,
  fields: [['access', stamp.access], ...encodeEmbed(parts)],
  atLeast: stamp.now,
  channel: stamp.channel,
  message: embedChangedMessage(page.slug),
  unchangedMessage: renderedMessage(page.slug),
});

/** Checks moved the page's assembled answers (charts, rtm, `updated`) without a render. */
export const announceChecks = (tag: string, slug: string): WriteOp => ({
  op: 'publish',
  channel: partitionKeys(tag).changes,
  message: embedChangedMessage(slug),
});

export const putSnippets = (page: PageRef, body: string): WriteOp =>
  setOp(embedKeys(page).snippets, toBytes(body));

export const putOverall = (page: PageRef, overall: OverallStatus): WriteOp =>
  setOp(embedKeys(page).overall, overall);

// Write builders of the embed model.
import type { OverallStatus } from '../../src/shared/overallStatus.ts';
import { toBytes } from '../store/bytes.ts';
import type { PageRef } from '../store/page.ts';
import { setOp, type WriteOp } from '../store/writeOps.ts';
import { embedChangedMessage, renderedMessage, settingsChangedMessage } from '../store/changes.ts';
import { embedKeys, encodeEmbed, type EmbedParts } from './codec.ts';
import { partitionKeys } from '../store/control/keys.ts';
import { encodeOverallSpan, type OverallSpan } from './overallSpan.ts';

/**
 * The parts with the access document, versioned: only changed fields are written, and the page's
 * slug is published on `channel` when anything changed, `renderedMessage` otherwise
 * (docs/read-models.md, "Live streams").
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

/** A page event was rendered: API processes drop the page's cached reads rather than answer from them once more. */
export const announceSettings = (tag: string, slug: string): WriteOp => ({
  op: 'publish',
  channel: partitionKeys(tag).changes,
  message: settingsChangedMessage(slug),
});

export const putSnippets = (page: PageRef, body: string): WriteOp =>
  setOp(embedKeys(page).snippets, toBytes(body));

export const putOverall = (page: PageRef, overall: OverallStatus, span: OverallSpan): WriteOp[] => [
  setOp(embedKeys(page).overall, overall),
  setOp(embedKeys(page).overallSpan, encodeOverallSpan(span)),
];

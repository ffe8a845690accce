// The read side of the updated slot (projections/render/updatedSlot.ts): a stored body has the
// page's latest event time filled in where its render left the slot, and an ETag derived from the
// stored one, so a body re-rendered for no other reason than a check never needs to be.
import { createHash } from 'node:crypto';
import { UPDATED_SLOT_JSON } from '../../projections/render/updatedSlot.ts';
import { formatTimestamp } from '../shared/time.ts';
import type { StoredBytes } from '../../projections/store/bytes.ts';

const SLOT = Buffer.from(UPDATED_SLOT_JSON, 'latin1');
// Searched from its backslash, which JSON has only in escapes: a search from the opening quote
// stops at every string of the body, and took four times as long on a large document.
const TAIL = SLOT.subarray(1);
const QUOTE = SLOT[0];

/** The offset of the first slot in `body` from `from`, or -1. */
const slotAt = (body: Buffer, from: number): number => {
  for (let at = body.indexOf(TAIL, from + 1); at >= 0; at = body.indexOf(TAIL, at + TAIL.length))
    if (body[at - 1] === QUOTE) return at - 1;
  return -1;
};

/**
 * The time filled in: the page's latest event, or the Unix epoch when it has none (no page with
 * rendered documents lacks one; this keeps the answer deterministic anyway).
 */
export const updatedIso = (updatedAt: number | null): string => formatTimestamp(updatedAt ?? 0);

/** `body` with every slot replaced by `updatedAtIso` as a JSON string; `body` itself when it has none. */
export const fillUpdated = (body: Buffer, updatedAtIso: string): Buffer => {
  let at = slotAt(body, 0);
  if (at < 0) return body;
  const value = Buffer.from(JSON.stringify(updatedAtIso), 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (; at >= 0; at = slotAt(body, from)) {
    parts.push(body.subarray(from, at), value);
    from = at + SLOT.length;
  }
  parts.push(body.subarray(from));
  const slots = (parts.length - 1) / 2;
  return Buffer.concat(parts, body.length + slots * (value.length - SLOT.length));
};

/**
 * The strong ETag of a body stored as `etag` and filled with `updatedAtIso`: it changes with
 * either, and hashes two short strings instead of the body.
 */
export const filledEtag = (etag: string, updatedAtIso: string): string =>
  `"${createHash('sha1').update(etag).update('\n').update(updatedAtIso).digest('base64url')}"`;

/** A stored body ready to send, its slots filled; the stored body and ETag when it has none. */
export const fillStored = (stored: StoredBytes, updatedAtIso: string): StoredBytes => {
  const body = fillUpdated(stored.body, updatedAtIso);
  return body === stored.body ? stored : { etag: filledEtag(stored.etag, updatedAtIso), body };
};

// The typed read of one stored Statuspage document (key: projections/statuspage/storage.ts), ready
// bytes with their ETag, and the API's read of a document with its page's latest event filled in.
import type { StatuspageDocument } from '../../../projections/statuspage/documents.ts';
import { fromBuffer, toBytes, type StoredBytes } from '../../../projections/store/bytes.ts';
import type { UrlSettings } from '../../../projections/types.ts';
import type { RedisClient } from '../../store/redisClient.ts';
import { accessRead } from '../access/reads.ts';
import { fillStored, updatedIso } from '../fillUpdated.ts';
import { updatedRead } from '../pageState/reads.ts';
import { renderPendingRead } from '../series/pendingRender.ts';
import { statuspageAtInstant } from './atInstant.ts';
import type { PageRef } from '../../../projections/store/page.ts';
import { hashGetBuffer, mapRead, readAll, type Read } from '../../store/reads.ts';
import { statuspageKey } from '../../../projections/statuspage/storage.ts';

export const statuspageRead = (page: PageRef, document: StatuspageDocument): Read<StoredBytes | null> =>
  mapRead(hashGetBuffer(statuspageKey(page), document), fromBuffer);

export const createStatuspageReads = (redis: RedisClient, urls: UrlSettings) => ({
  /**
   * The document with the page's latest event time filled in (the stored one has the slot). One
   * log position: while a render is pending (its batch committed, the render not yet), the
   * document is rendered from one atomic read with that time, as the render will store it.
   */
  document: async (page: PageRef, document: StatuspageDocument, clockNow: number) => {
    const [access, stored, updated, pending] = await readAll(redis, [
      accessRead(page),
      statuspageRead(page, document),
      updatedRead(page),
      renderPendingRead(page),
    ]);
    const rendered =
      pending && stored !== null ? await statuspageAtInstant(redis, urls, page, clockNow) : null;
    if (rendered === null) return { access, stored: stored && fillStored(stored, updatedIso(updated)) };
    // The bytes and ETag the render stores, read back as the stored path reads them.
    const built = fromBuffer(Buffer.from(toBytes(rendered.documents[document]), 'utf8'));
    return { access: rendered.access, stored: built && fillStored(built, rendered.updated) };
  },
});

export type StatuspageReads = ReturnType<typeof createStatuspageReads>;

// The updated slot filled at read time: every slot and nothing else, one ETag per stored body and
// time.
import { describe, expect, it } from 'vitest';
import { UPDATED_SLOT } from '../../../projections/render/updatedSlot.ts';
import { etagOf, type StoredBytes } from '../../../projections/store/bytes.ts';
import { fillStored, fillUpdated, filledEtag, updatedIso } from '../../../src/readModels/fillUpdated.ts';

const T1 = '2026-11-22T11:59:00Z';
const T2 = '2026-11-22T12:00:00Z';

const stored = (doc: unknown): StoredBytes => {
  const body = JSON.stringify(doc);
  return { etag: etagOf(body), body: Buffer.from(body, 'utf8') };
};

describe('fillUpdated', () => {
  it('returns a body without a slot as it is, with its own ETag', () => {
    // The slot's text typed by a user is escaped: `"\\u0000"` in the body, never the slot.
    const doc = stored({ page: { updated_at: T1 }, note: '\\u0000', text: 'no slot: \\u0000' });
    expect(fillUpdated(doc.body, T2)).toBe(doc.body);
    expect(fillStored(doc, T2)).toBe(doc);
  });

  it('fills every slot, first, adjacent and last, and leaves the rest byte for byte', () => {
    const doc = {
      a: UPDATED_SLOT,
      list: [UPDATED_SLOT, UPDATED_SLOT, { created_at: '2026-11-20T00:00:00Z', updated_at: UPDATED_SLOT }],
      text: 'Errors on <b>API</b> & "retries" ✓ \\u0000',
      z: UPDATED_SLOT,
    };
    const filled = fillUpdated(stored(doc).body, T1);
    expect(filled.toString('utf8')).toBe(
      JSON.stringify({
        a: T1,
        list: [T1, T1, { created_at: '2026-11-20T00:00:00Z', updated_at: T1 }],
        text: 'Errors on <b>API</b> & "retries" ✓ \\u0000',
        z: T1,
      }),
    );
    expect(fillUpdated(Buffer.from(JSON.stringify(UPDATED_SLOT)), T1).toString()).toBe(`"${T1}"`);
  });

  it('gives the filled body an ETag that changes with the time and with the body, and with nothing else', () => {
    const doc = stored({ page: { updated_at: UPDATED_SLOT }, status: 'none' });
    const other = stored({ page: { updated_at: UPDATED_SLOT }, status: 'major' });
    const first = fillStored(doc, T1);
    expect(first.etag).toMatch(/^"[\w-]{27}"$/);
    expect(first.etag).not.toBe(doc.etag);
    expect(fillStored(doc, T1).etag).toBe(first.etag);
    expect(first.etag).toBe(filledEtag(doc.etag, T1));
    const tags = new Set([first.etag, fillStored(doc, T2).etag, fillStored(other, T1).etag]);
    expect(tags.size).toBe(3);
  });

  it('fills the Unix epoch for a page without a latest event', () => {
    expect([updatedIso(null), updatedIso(Date.parse(T1))]).toEqual(['1970-01-01T00:00:00Z', T1]);
  });
});

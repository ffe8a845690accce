// The slot where a document shows the page's latest event time, filled in when read, so a batch
// of checks that changes no status re-renders none of them.

/**
 * The string a render writes for the page's updatedAt. NUL is refused at ingest
 * (src/events/bounds.ts), so no user string renders as it.
 */
export const UPDATED_SLOT = '\u0000';

/** The slot as JSON.stringify writes it, quotes included (8 bytes): what the read side replaces. */
export const UPDATED_SLOT_JSON = JSON.stringify(UPDATED_SLOT);

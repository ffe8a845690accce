// FNV-1a (32 bit) of a page slug. Stored beside each event (page_hash) so a projector
// partition can filter the log in SQL, and computed again by the API to find a page's keys.
export const pageHash = (slug: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < slug.length; i += 1) {
    hash ^= slug.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
};

export const partitionOf = (slug: string, partitions: number): number => pageHash(slug) % partitions;

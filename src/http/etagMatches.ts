// Conditional GET by entity tag, shared by the routes' answers and the response memo's.

const opaque = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`; `*` matches all. */
export const etagMatches = (header: string | undefined, etag: string): boolean => {
  if (header === undefined) return false;
  const wanted = opaque(etag);
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || opaque(tag) === wanted;
  });
};

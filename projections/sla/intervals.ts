// Interval arithmetic on [start, end) in integer ms, for the SLA figures.
export type Span = Readonly<{ start: number; end: number }>;

/** The union of `spans` as sorted, disjoint, non-empty spans. */
export const union = (spans: readonly Span[]): Span[] => {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: { start: number; end: number }[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last !== undefined && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
};

/** `spans` cut to [from, to), empty ones dropped. */
export const clip = (spans: readonly Span[], from: number, to: number): Span[] =>
  spans
    .map((s) => ({ start: Math.max(s.start, from), end: Math.min(s.end, to) }))
    .filter((s) => s.end > s.start);

/** `span` minus the sorted, disjoint `holes`. */
export const subtract = (span: Span, holes: readonly Span[]): Span[] => {
  const out: Span[] = [];
  let from = span.start;
  for (const hole of holes) {
    if (hole.end <= from) continue;
    if (hole.start >= span.end) break;
    if (hole.start > from) out.push({ start: from, end: hole.start });
    from = Math.max(from, hole.end);
  }
  if (from < span.end) out.push({ start: from, end: span.end });
  return out;
};

export const length = (spans: readonly Span[]): number => spans.reduce((n, s) => n + s.end - s.start, 0);

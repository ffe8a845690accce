// The instants the stored overall status holds for: from the latest maintenance window boundary
// at or before the render's instant to the next one after it (docs/architecture.md, "Window
// boundaries"). An answer for an instant outside it computes the overall when read instead.

/** null: no boundary on that side. */
export type OverallSpan = Readonly<{ from: number | null; until: number | null }>;

export const encodeOverallSpan = ({ from, until }: OverallSpan): string => `${from ?? ''}|${until ?? ''}`;

/**
 * Whether the overall rendered with `stored` holds at `instant`: a maintenance's status changes
 * at a boundary b for every instant >= b, so it holds for from <= instant < until. A page rendered
 * by an earlier release has none: its overall is taken as it is until its next render.
 */
export const overallHoldsAt = (stored: string | null, instant: number): boolean => {
  if (stored === null) return true;
  const [from = '', until = ''] = stored.split('|');
  return (from === '' || Number(from) <= instant) && (until === '' || instant < Number(until));
};

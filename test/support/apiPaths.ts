// The eleven GET endpoints of read-api.md for one page, in the spec's order.
export const elevenApiPaths = (
  slug: string,
  monitorId: number,
  options: { embedQuery?: string; period?: string } = {},
): string[] => [
  `/api/status-pages/${slug}/incidents`,
  `/api/status-pages/${slug}/incidents/filter?month=2026-11`,
  `/api/status-pages/${slug}/incidents/daily-counts?month=2026-11`,
  `/api/status-pages/${slug}/maintenances`,
  `/api/status-pages/${slug}/maintenances/filter?month=2026-11`,
  `/api/status-pages/${slug}/maintenances/daily-counts?month=2026-11`,
  `/api/status/${slug}/charts`,
  `/api/status-page/${slug}/minute-data`,
  `/api/status-pages/${slug}/monitors/${monitorId}/availability${options.period ? `?period=${options.period}` : ''}`,
  `/api/embed/status?slug=${slug}${options.embedQuery ?? ''}`,
  `/api/embed/markdown?slug=${slug}`,
];

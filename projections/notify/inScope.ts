// Scope (notifications.md): a subscriber that names components hears of what touches one of
// them; an empty list on either side means the whole page.
export const inScope = (subscribed: readonly string[], touched: readonly string[]): boolean =>
  subscribed.length === 0 || touched.length === 0 || touched.some((name) => subscribed.includes(name));

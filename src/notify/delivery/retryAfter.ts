// When a receiver says when to come back: Retry-After as seconds or an HTTP-date (RFC 9110), or
// Discord's JSON `retry_after` in seconds (fractional), which is the more precise of the two.
export const retryAfterHeaderMs = (value: string | undefined, nowMs: number): number | null => {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names a weekday and month; a bare "-5" would parse as a year.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
};

export const retryAfterBodyMs = (body: string): number | null => {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || !('retry_after' in parsed)) return null;
    const seconds = parsed.retry_after;
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
      ? Math.ceil(seconds * 1000)
      : null;
  } catch {
    return null; // not JSON: the header decides
  }
};

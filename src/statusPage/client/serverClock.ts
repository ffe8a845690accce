// "Now" as the service sees it (from the charts' timestamp), so today, this month and the last
// hour are the API's, whatever the reader's clock says.
let offsetMs = 0;

export const serverClock = {
  sync: (unixSeconds: number): void => {
    offsetMs = unixSeconds * 1000 - Date.now();
  },
  now: (): Date => new Date(Date.now() + offsetMs),
  /** Start of the current UTC day, in milliseconds. */
  todayStart: (): number => {
    const now = Date.now() + offsetMs;
    return now - (now % 86_400_000);
  },
  /** The current UTC month, YYYY-MM. */
  month: (): string => new Date(Date.now() + offsetMs).toISOString().slice(0, 7),
};

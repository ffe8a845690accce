// Which time zone names the write side accepts: IANA names the runtime's Intl knows ("UTC",
// "Europe/Berlin", "Asia/Kathmandu"); fixed offsets such as "+01:00" are not names.
const NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

export const isKnownZone = (zone: string): boolean => {
  if (!NAME.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

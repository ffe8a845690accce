// Time is a dependency: tests pin "now", production reads the system clock.
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
export const fixedClock =
  (at: Date | string): Clock =>
  () =>
    new Date(at);

// Time is a dependency: tests pin "now", production reads the system clock.
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

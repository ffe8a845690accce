// Encodings of the control model's small values.
export type ActiveVersion = Readonly<{ version: number; partitions: number }>;

/** `{P}:active` holds "<version>:<partitions>". */
export const formatActive = (active: ActiveVersion): string => `${active.version}:${active.partitions}`;
export const parseActive = (text: string | null): ActiveVersion | null => {
  const match = text ? /^(\d+):(\d+)$/.exec(text) : null;
  return match ? { version: Number(match[1]), partitions: Number(match[2]) } : null;
};

export type MonitorOfPage = Readonly<{ slug: string; monitorId: number }>;

/** A member of the availability dirty set: "<slug>|<monitorId>" (slugs never contain '|'). */
export const formatMonitorOfPage = ({ slug, monitorId }: MonitorOfPage): string => `${slug}|${monitorId}`;
export const parseMonitorOfPage = (member: string): MonitorOfPage => {
  const split = member.lastIndexOf('|');
  return { slug: member.slice(0, split), monitorId: Number(member.slice(split + 1)) };
};

/** `<slug>|<id>` of an incident to render: slugs never hold `|`, ids may. */
export type ItemOfPage = Readonly<{ slug: string; id: string }>;
export const formatItemOfPage = ({ slug, id }: ItemOfPage): string => `${slug}|${id}`;
export const parseItemOfPage = (member: string): ItemOfPage => {
  const split = member.indexOf('|');
  return { slug: member.slice(0, split), id: member.slice(split + 1) };
};

/** The tick holds the minute (epoch ms) of the last clock render; 0 when none. */
export const parseTick = (text: string | null): number => Number(text ?? 0);

// The registry the dispatcher looks senders up in: one Sender per channel this process can send
// on. A channel without one keeps its rows pending (counted in the backlog) until it has one.
import type { Config } from '../config.ts';
import type { Channel, Sender } from './channel.ts';
import { httpSenders } from './senders/httpSenders.ts';

export type Senders = Readonly<Record<Channel, Sender | undefined>>;

/** Builds the senders of some channels from the settings; a channel left out is not configured. */
export type SenderSource = (config: Config) => Partial<Record<Channel, Sender>>;

/** Where this build's senders come from. */
export const senderSources: readonly SenderSource[] = [
  (config) => httpSenders({ allowHosts: config.notifyAllowHosts }),
];

export const CHANNELS: readonly Channel[] = ['email', 'webhook', 'slack', 'teams', 'discord'];

/** One sender per channel, from the settings and the sources available. */
export const buildSenders = (config: Config, sources: readonly SenderSource[] = senderSources): Senders => {
  const available = sources.reduce<Partial<Record<Channel, Sender>>>(
    (all, source) => ({ ...all, ...source(config) }),
    {},
  );
  return {
    email: available.email,
    webhook: available.webhook,
    slack: available.slack,
    teams: available.teams,
    discord: available.discord,
  };
};

// The registry the dispatcher looks senders up in: one Sender per channel this process can send
// on. A channel without one keeps its rows pending (counted in the backlog) until it has one.
import type { Config } from '../config.ts';
import type { Channel, Sender } from './channel.ts';

export type Senders = Readonly<Record<Channel, Sender | undefined>>;

/** Builds a channel's sender from the settings; undefined when the channel is not configured. */
export type SenderFactory = (config: Config) => Sender | undefined;

/** The channels this build knows how to send on. */
export const channelSenders: Partial<Record<Channel, SenderFactory>> = {};

export const CHANNELS: readonly Channel[] = ['email', 'webhook', 'slack', 'teams', 'discord'];

/** One sender per channel, from the settings and the factories available. */
export const buildSenders = (
  config: Config,
  factories: Partial<Record<Channel, SenderFactory>> = channelSenders,
): Senders => {
  const senderOf = (channel: Channel): Sender | undefined => factories[channel]?.(config);
  return {
    email: senderOf('email'),
    webhook: senderOf('webhook'),
    slack: senderOf('slack'),
    teams: senderOf('teams'),
    discord: senderOf('discord'),
  };
};

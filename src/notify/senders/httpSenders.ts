// The four HTTP channels' senders over one poster (one agent, one address policy), for the
// dispatcher's registry of senders by channel.
import type { Channel, Sender } from '../channel.ts';
import { createJsonPoster, type DeliverySettings } from '../delivery/postJson.ts';
import { discordSender } from './discord.ts';
import { slackSender } from './slack.ts';
import { teamsSender } from './teams.ts';
import { webhookSender } from './webhook.ts';

export type HttpChannel = Exclude<Channel, 'email'>;

export const httpSenders = (settings: DeliverySettings): Record<HttpChannel, Sender> => {
  const post = createJsonPoster(settings);
  return {
    webhook: webhookSender(post, settings.now),
    slack: slackSender(post),
    teams: teamsSender(post),
    discord: discordSender(post),
  };
};

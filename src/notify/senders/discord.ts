// The Discord channel: a channel webhook (answers 204; 429 with retry_after when rate limited).
import { renderDiscord } from '../../../projections/notify/formats/discord.ts';
import type { Sender } from '../channel.ts';
import type { JsonPoster } from '../delivery/postJson.ts';
import { chatSender } from './chatSender.ts';

export const discordSender = (post: JsonPoster): Sender => chatSender(post, renderDiscord);

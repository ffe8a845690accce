// The Teams channel: a Workflows webhook (answers 202 Accepted).
import { renderTeams } from '../../../projections/notify/formats/teams.ts';
import type { Sender } from '../channel.ts';
import type { JsonPoster } from '../delivery/postJson.ts';
import { chatSender } from './chatSender.ts';

export const teamsSender = (post: JsonPoster): Sender => chatSender(post, renderTeams);

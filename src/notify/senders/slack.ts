// The Slack channel: an incoming webhook (answers 200 "ok"; 410 when the channel is archived).
import { renderSlack } from '../../../projections/notify/formats/slack.ts';
import type { Sender } from '../channel.ts';
import type { JsonPoster } from '../delivery/postJson.ts';
import { chatSender } from './chatSender.ts';

export const slackSender = (post: JsonPoster): Sender => chatSender(post, renderSlack);

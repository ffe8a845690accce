// Local HTTPS stand-ins for Slack, Teams and Discord webhooks: they check what each vendor's
// documentation requires of a request and answer as the vendor does, so a sender's test fails on
// a body the vendor would refuse.
//   Slack: incoming webhooks and Block Kit reference (200 "ok"; 400 "invalid_payload").
//   Teams: Workflows "post to a channel when a webhook request is received" (202; one Adaptive
//          Card attachment; 28 KB per message).
//   Discord: Execute Webhook and the Embed limits (204; 400 code 50035; 429 with retry_after).
import type { ServerResponse } from 'node:http';
import {
  startLocalReceiver,
  type LocalReceiver,
  type ReceivedRequest,
  type TestCertificates,
} from './localHttps.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Each problem the vendor would refuse the body for; empty when it would accept it. */
export const slackProblems = (body: Json): string[] => {
  const problems: string[] = [];
  const text = str(body.text);
  const blocks = arr(body.blocks);
  if ((text === null || text === '') && blocks.length === 0) problems.push('no text and no blocks');
  if (blocks.length > 50) problems.push('more than 50 blocks');
  for (const block of blocks) {
    if (!isObject(block)) {
      problems.push('block is not an object');
      continue;
    }
    const blockText = isObject(block.text) ? block.text : null;
    if (block.type === 'header') {
      if (blockText?.type !== 'plain_text') problems.push('header text must be plain_text');
      if ((str(blockText?.text) ?? '').length > 150) problems.push('header text over 150');
    } else if (block.type === 'section') {
      const fields = arr(block.fields);
      if (blockText === null && fields.length === 0) problems.push('section without text or fields');
      if ((str(blockText?.text) ?? '').length > 3000) problems.push('section text over 3000');
      if (fields.length > 10) problems.push('more than 10 fields');
      for (const field of fields)
        if (!isObject(field) || (str(field.text) ?? '').length > 2000) problems.push('field over 2000');
    } else if (block.type === 'context') {
      const elements = arr(block.elements);
      if (elements.length === 0 || elements.length > 10) problems.push('context needs 1 to 10 elements');
    } else problems.push(`unexpected block type ${String(block.type)}`);
  }
  return problems;
};

export const teamsProblems = (body: Json, bytes: number): string[] => {
  const problems: string[] = [];
  if (bytes > 28 * 1024) problems.push('message over 28 KB');
  if (body.type !== 'message') problems.push('type must be message');
  const attachments = arr(body.attachments);
  if (attachments.length !== 1) problems.push('exactly one attachment expected');
  const attachment = attachments[0];
  if (!isObject(attachment) || attachment.contentType !== 'application/vnd.microsoft.card.adaptive')
    problems.push('attachment must be an Adaptive Card');
  const card = isObject(attachment) && isObject(attachment.content) ? attachment.content : null;
  if (card?.type !== 'AdaptiveCard') problems.push('content.type must be AdaptiveCard');
  if (str(card?.version) === null) problems.push('card needs a version');
  if (arr(card?.body).length === 0) problems.push('card body is empty');
  return problems;
};

const DISCORD = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  name: 256,
  value: 1024,
  footer: 2048,
  author: 256,
  total: 6000,
};

export const discordProblems = (body: Json): string[] => {
  const problems: string[] = [];
  const content = str(body.content) ?? '';
  const embeds = arr(body.embeds);
  if (content === '' && embeds.length === 0) problems.push('no content and no embeds');
  if (content.length > DISCORD.content) problems.push('content over 2000');
  if (embeds.length > DISCORD.embeds) problems.push('more than 10 embeds');
  if (
    body.allowed_mentions !== undefined &&
    !Array.isArray(isObject(body.allowed_mentions) ? body.allowed_mentions.parse : null)
  )
    problems.push('allowed_mentions.parse must be a list');
  let total = 0;
  for (const embed of embeds) {
    if (!isObject(embed)) {
      problems.push('embed is not an object');
      continue;
    }
    const title = str(embed.title) ?? '';
    const description = str(embed.description) ?? '';
    const footer = isObject(embed.footer) ? (str(embed.footer.text) ?? '') : '';
    const fields = arr(embed.fields);
    if (title.length > DISCORD.title) problems.push('title over 256');
    if (description.length > DISCORD.description) problems.push('description over 4096');
    if (footer.length > DISCORD.footer) problems.push('footer over 2048');
    if (fields.length > DISCORD.fields) problems.push('more than 25 fields');
    total += title.length + description.length + footer.length;
    for (const field of fields) {
      const name = isObject(field) ? (str(field.name) ?? '') : '';
      const value = isObject(field) ? (str(field.value) ?? '') : '';
      if (name === '' || value === '') problems.push('field needs a name and a value');
      if (name.length > DISCORD.name || value.length > DISCORD.value) problems.push('field over its limits');
      total += name.length + value.length;
    }
  }
  if (total > DISCORD.total) problems.push('embeds over 6000 characters in all');
  return problems;
};

export type ChatStandIns = Readonly<{
  /** Where each vendor's webhook is: `https://localhost:<port>/slack/<name>` and so on. */
  url: (vendor: 'slack' | 'teams' | 'discord', name?: string) => string;
  /** The bodies each stand-in accepted, parsed. */
  accepted: Readonly<Record<'slack' | 'teams' | 'discord', unknown[]>>;
  /** The bodies refused, with why. */
  refused: { vendor: string; problems: string[] }[];
  /** Slack: the channel behind `name` is archived (410 channel_is_archived). */
  archiveSlack: (name: string) => void;
  /** Discord: answer the next request 429 with this many seconds to wait. */
  rateLimitDiscord: (seconds: number) => void;
  receiver: LocalReceiver;
  close: () => Promise<void>;
}>;

const parseJson = (req: ReceivedRequest): Json | null => {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return null;
  try {
    const body: unknown = JSON.parse(req.body);
    return isObject(body) ? body : null;
  } catch {
    return null;
  }
};

export const startChatStandIns = async (certs: TestCertificates): Promise<ChatStandIns> => {
  const accepted = { slack: [] as unknown[], teams: [] as unknown[], discord: [] as unknown[] };
  const refused: { vendor: string; problems: string[] }[] = [];
  const archived = new Set<string>();
  let discordWait: number | null = null;

  const slack = (req: ReceivedRequest, res: ServerResponse, body: Json | null) => {
    if (archived.has(req.path))
      return res.writeHead(410, { 'content-type': 'text/html' }).end('channel_is_archived');
    const problems = body === null ? ['not a JSON object'] : slackProblems(body);
    if (problems.length > 0) {
      refused.push({ vendor: 'slack', problems });
      return res.writeHead(400, { 'content-type': 'text/html' }).end('invalid_payload');
    }
    accepted.slack.push(body);
    return res.writeHead(200, { 'content-type': 'text/html' }).end('ok');
  };
  const teams = (req: ReceivedRequest, res: ServerResponse, body: Json | null) => {
    const problems = body === null ? ['not a JSON object'] : teamsProblems(body, Buffer.byteLength(req.body));
    if (problems.length > 0) {
      refused.push({ vendor: 'teams', problems });
      return res
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"error":{"code":"InvalidRequestContent"}}');
    }
    accepted.teams.push(body);
    return res.writeHead(202).end();
  };
  const discord = (_req: ReceivedRequest, res: ServerResponse, body: Json | null) => {
    if (discordWait !== null) {
      const wait = discordWait;
      discordWait = null;
      return res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(Math.ceil(wait)) })
        .end(JSON.stringify({ message: 'You are being rate limited.', retry_after: wait, global: false }));
    }
    const problems = body === null ? ['not a JSON object'] : discordProblems(body);
    if (problems.length > 0) {
      refused.push({ vendor: 'discord', problems });
      return res
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"code":50035,"message":"Invalid Form Body"}');
    }
    accepted.discord.push(body);
    return res.writeHead(204).end();
  };
  const vendors = { slack, teams, discord } as const;

  const receiver = await startLocalReceiver(certs, (req, res) => {
    const vendor = /^\/(slack|teams|discord)\//.exec(req.path)?.[1] as keyof typeof vendors | undefined;
    if (req.method !== 'POST' || vendor === undefined) return void res.writeHead(404).end();
    vendors[vendor](req, res, parseJson(req));
  });
  return {
    url: (vendor, name = 'hook') => receiver.url(`/${vendor}/${name}`),
    accepted,
    refused,
    archiveSlack: (name) => archived.add(`/slack/${name}`),
    rateLimitDiscord: (seconds) => {
      discordWait = seconds;
    },
    receiver,
    close: receiver.close,
  };
};

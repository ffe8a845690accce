// Each HTTP channel's sender end to end: real HTTPS to local stand-ins that check the vendors'
// documented request shapes, and a webhook receiver verified with the standardwebhooks package.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDiscord } from '../../projections/notify/formats/discord.ts';
import { renderNative } from '../../projections/notify/formats/native.ts';
import { renderSlack } from '../../projections/notify/formats/slack.ts';
import { renderStatuspageWebhook } from '../../projections/notify/formats/statuspage.ts';
import { renderTeams } from '../../projections/notify/formats/teams.ts';
import type { Recipient } from '../../src/notify/channel.ts';
import { parseAllowHosts } from '../../src/notify/delivery/allowHosts.ts';
import { createJsonPoster } from '../../src/notify/delivery/postJson.ts';
import { httpSenders } from '../../src/notify/senders/httpSenders.ts';
import { generateWebhookSecret } from '../../src/notify/senders/webhookSignature.ts';
import { startChatStandIns, type ChatStandIns } from '../support/chatStandIns.ts';
import {
  makeTestCertificates,
  startLocalReceiver,
  type LocalReceiver,
  type TestCertificates,
} from '../support/localHttps.ts';
import { incidentMessage, maintenanceMessage, monitorMessage } from '../support/notificationMessages.ts';

let certs: TestCertificates;
let chats: ChatStandIns;
let hooks: LocalReceiver;
let senders: ReturnType<typeof httpSenders>;

beforeAll(async () => {
  certs = makeTestCertificates();
  chats = await startChatStandIns(certs);
  hooks = await startLocalReceiver(certs, (req, res) => {
    if (req.path === '/gone') res.writeHead(410).end();
    else res.writeHead(204).end();
  });
  senders = httpSenders({ allowHosts: parseAllowHosts('localhost'), extraCa: [certs.ca] });
});
afterAll(async () => {
  await chats.close();
  await hooks.close();
});

const recipient = (
  channel: Recipient['channel'],
  target: string,
  extra: Partial<Recipient> = {},
): Recipient => ({
  id: 'sub_0123456789abcdefghijkl',
  page: 'acme',
  channel,
  target,
  format: 'native',
  secrets: [],
  ...extra,
});

describe('webhook sender', () => {
  it('posts the native body signed by every live secret, each verifiable with standardwebhooks', async () => {
    const secrets = [generateWebhookSecret(), generateWebhookSecret()];
    const message = incidentMessage();
    const outcome = await senders.webhook(recipient('webhook', hooks.url('/native'), { secrets }), message);
    expect(outcome).toEqual({ kind: 'delivered', status: 204 });
    const [received] = hooks.requests.filter((r) => r.path === '/native');
    if (!received) throw new Error('nothing received');
    expect(received.headers['webhook-id']).toBe(message.id);
    const headers = {
      'webhook-id': String(received.headers['webhook-id']),
      'webhook-timestamp': String(received.headers['webhook-timestamp']),
      'webhook-signature': String(received.headers['webhook-signature']),
    };
    for (const secret of secrets)
      expect(new Webhook(secret).verify(received.body, headers)).toEqual(renderNative(message));
  });

  it('posts the statuspage body when the subscriber asked for that format, with the same id on a retry', async () => {
    const secrets = [generateWebhookSecret()];
    const message = monitorMessage();
    const to = recipient('webhook', hooks.url('/statuspage'), { secrets, format: 'statuspage' });
    await senders.webhook(to, message);
    await senders.webhook(to, message);
    const received = hooks.requests.filter((r) => r.path === '/statuspage');
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([message.id, message.id]);
    for (const r of received) {
      const headers = {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      };
      expect(new Webhook(secrets[0] ?? '').verify(r.body, headers)).toEqual(renderStatuspageWebhook(message));
    }
  });

  it('reports 410 as gone, and sends nothing without a live secret', async () => {
    const secrets = [generateWebhookSecret()];
    expect(
      await senders.webhook(recipient('webhook', hooks.url('/gone'), { secrets }), incidentMessage()),
    ).toEqual({
      kind: 'gone',
      status: 410,
    });
    expect(await senders.webhook(recipient('webhook', hooks.url('/unsigned')), incidentMessage())).toEqual({
      kind: 'rejected',
      status: null,
      reason: 'no live signing secret',
    });
    expect(hooks.requests.filter((r) => r.path === '/unsigned')).toEqual([]);
  });
});

describe('chat senders against the vendors’ stand-ins', () => {
  it('Slack accepts the Block Kit body (200 "ok") and an archived channel is gone', async () => {
    const message = maintenanceMessage();
    expect(await senders.slack(recipient('slack', chats.url('slack', 'T1/B1/x')), message)).toEqual({
      kind: 'delivered',
      status: 200,
    });
    expect(chats.accepted.slack).toEqual([renderSlack(message)]);
    chats.archiveSlack('T1/B2/y');
    expect(await senders.slack(recipient('slack', chats.url('slack', 'T1/B2/y')), message)).toEqual({
      kind: 'gone',
      status: 410,
    });
  });

  it('Teams accepts the Adaptive Card message (202)', async () => {
    const message = incidentMessage({ coalesced: 2 });
    expect(await senders.teams(recipient('teams', chats.url('teams', 'workflows/abc')), message)).toEqual({
      kind: 'delivered',
      status: 202,
    });
    expect(chats.accepted.teams).toEqual([renderTeams(message)]);
  });

  it('Discord accepts the embed (204), and a 429 is retried after its retry_after', async () => {
    const message = monitorMessage();
    const to = recipient('discord', chats.url('discord', 'api/webhooks/1/token'));
    chats.rateLimitDiscord(2.5);
    expect(await senders.discord(to, message)).toEqual({
      kind: 'retry',
      status: 429,
      retryAfterMs: 2500,
      reason: 'HTTP 429',
    });
    expect(await senders.discord(to, message)).toEqual({ kind: 'delivered', status: 204 });
    expect(chats.accepted.discord).toEqual([renderDiscord(message)]);
  });

  it('the stand-ins refuse what the vendors refuse', async () => {
    const post = createJsonPoster({ allowHosts: parseAllowHosts('localhost'), extraCa: [certs.ca] });
    const tooLong = JSON.stringify({ content: 'x'.repeat(2001) });
    expect(await post({ url: chats.url('discord'), body: tooLong })).toMatchObject({
      kind: 'retry',
      status: 400,
    });
    expect(
      await post({
        url: chats.url('slack'),
        body: '{"blocks":[{"type":"header","text":{"type":"mrkdwn","text":"x"}}]}',
      }),
    ).toMatchObject({ kind: 'retry', status: 400 });
    expect(
      await post({ url: chats.url('teams'), body: '{"type":"message","attachments":[]}' }),
    ).toMatchObject({ kind: 'retry', status: 400 });
    expect(chats.refused).toEqual([
      { vendor: 'discord', problems: ['content over 2000'] },
      { vendor: 'slack', problems: ['header text must be plain_text'] },
      {
        vendor: 'teams',
        problems: [
          'exactly one attachment expected',
          'attachment must be an Adaptive Card',
          'content.type must be AdaptiveCard',
          'card needs a version',
          'card body is empty',
        ],
      },
    ]);
  });
});

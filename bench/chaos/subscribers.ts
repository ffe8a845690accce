// The chaos pages' subscribers and what they receive: twenty webhooks (five a page, native and
// statuspage bodies, some scoped to one monitor), a Slack and a Discord channel, all served by
// local HTTPS receivers. The webhooks are answered after up to a second, as a real endpoint might:
// a worker is then sometimes killed with a message in flight.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { startChatStandIns, type ChatStandIns } from '../../test/support/chatStandIns.ts';
import {
  makeTestCertificates,
  startLocalReceiver,
  type LocalReceiver,
  type ReceivedRequest,
} from '../../test/support/localHttps.ts';
import { monitorName, monitorsOf, PAGES } from './traffic.ts';

export type ChaosChannel = 'webhook' | 'slack' | 'discord';

export type ChaosSubscriber = Readonly<{
  id: string;
  page: string;
  channel: ChaosChannel;
  /** Where its messages arrive on the receivers. */
  path: string;
  components: readonly string[];
  format: 'native' | 'statuspage';
  /** The webhook signing secret (webhooks only). */
  secret?: string;
}>;

export type Received = Readonly<{
  request: ReceivedRequest;
  /** Webhooks: the signature verified with the standardwebhooks package when it arrived. */
  verified: boolean | null;
}>;

export type ChaosReceivers = Readonly<{
  /** The CA the workers trust (NODE_EXTRA_CA_CERTS). */
  caFile: string;
  subscribers: ChaosSubscriber[];
  /** Every request either receiver was sent, in arrival order. */
  received: () => Received[];
  /** Bodies the chat stand-ins refused, with why (a body the vendor would refuse). */
  chatRefused: () => string[];
  /** Creates the subscribers through the operator API (once the pages' monitors exist). */
  subscribe: (ingestUrl: string, token: string) => Promise<void>;
  close: () => Promise<void>;
}>;

type Wanted = Omit<ChaosSubscriber, 'id' | 'secret' | 'path'> & { url: string };

/** Five webhooks a page: every component twice (native, statuspage), then each monitor alone. */
const webhooksOf = (webhooks: LocalReceiver, page: string, p: number): Wanted[] => {
  const [first, second, third] = monitorsOf(p).map(monitorName);
  const scopes: [string[], Wanted['format']][] = [
    [[], 'native'],
    [[], 'statuspage'],
    [[first!], 'native'],
    [[second!], 'statuspage'],
    [[third!], 'native'],
  ];
  return scopes.map(([components, format], n) => ({
    page,
    channel: 'webhook',
    url: webhooks.url(`/hook/${page}/${n}`),
    components,
    format,
  }));
};

const create = async (ingestUrl: string, token: string, wanted: Wanted): Promise<ChaosSubscriber> => {
  const { url, ...rest } = wanted;
  const body = {
    channel: wanted.channel,
    url,
    components: wanted.components,
    ...(wanted.channel === 'webhook' ? { format: wanted.format } : {}),
  };
  // Before the first fault, but the API may still be starting: resent until it answers.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await fetch(`${ingestUrl}/v1/pages/${wanted.page}/subscribers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => null);
    if (response?.status === 201) {
      const { id, secret } = (await response.json()) as { id: string; secret?: string };
      return { ...rest, id, path: new URL(url).pathname, ...(secret === undefined ? {} : { secret }) };
    }
    if (response && response.status !== 503)
      throw new Error(`subscriber refused: ${response.status} ${await response.text()}`);
    await sleep(250);
  }
  throw new Error('the operator API did not take the subscribers');
};

/** Whether a webhook delivery verifies with the standardwebhooks package and the subscriber's secret. */
const verifies = (subscriber: ChaosSubscriber, request: ReceivedRequest): boolean => {
  if (subscriber.secret === undefined) return false;
  try {
    new Webhook(subscriber.secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
};

export const startReceivers = async (dir: string): Promise<ChaosReceivers> => {
  const certs = makeTestCertificates();
  const caFile = join(dir, 'notify-ca.pem');
  writeFileSync(caFile, certs.ca);
  const received: Received[] = [];
  const subscribers: ChaosSubscriber[] = [];
  const webhooks = await startLocalReceiver(certs, (request, res) => {
    // Verified at once: the verifier refuses a timestamp older than five minutes.
    const subscriber = subscribers.find((s) => s.path === request.path);
    received.push({ request, verified: subscriber !== undefined && verifies(subscriber, request) });
    setTimeout(() => res.writeHead(204).end(), Math.random() * 1000);
  });
  const chat: ChatStandIns = await startChatStandIns(certs);
  return {
    caFile,
    subscribers,
    received: () => [...received, ...chat.receiver.requests.map((request) => ({ request, verified: null }))],
    chatRefused: () => chat.refused.map((r) => `${r.vendor}: ${r.problems.join(', ')}`),
    subscribe: async (ingestUrl, token) => {
      const wanted: Wanted[] = [
        ...PAGES.flatMap((page, p) => webhooksOf(webhooks, page, p)),
        {
          page: PAGES[0]!,
          channel: 'slack',
          url: chat.url('slack', PAGES[0]),
          components: [],
          format: 'native',
        },
        {
          page: PAGES[1]!,
          channel: 'discord',
          url: chat.url('discord', PAGES[1]),
          components: [monitorName(monitorsOf(1)[0]!)],
          format: 'native',
        },
      ];
      for (const one of wanted) subscribers.push(await create(ingestUrl, token, one));
    },
    close: async () => {
      await webhooks.close();
      await chat.close();
    },
  };
};

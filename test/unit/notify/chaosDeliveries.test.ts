// The chaos run's judgement of what its receivers got: a retry left by a crash passes, anything
// else received twice, or not of the subscriber's sent messages, or sent and never received, fails.
import { describe, expect, it } from 'vitest';
import { renderSlack } from '../../../projections/notify/formats/slack.ts';
import { classifyDeliveries, type SentMessage } from '../../../bench/chaos/classifyDeliveries.ts';
import type { ChaosSubscriber, Received } from '../../../bench/chaos/subscribers.ts';
import { incidentMessage } from '../../support/notificationMessages.ts';

const hook: ChaosSubscriber = {
  id: 'sub_hook',
  page: 'acme',
  channel: 'webhook',
  path: '/hook/acme/0',
  components: [],
  format: 'native',
  secret: 'whsec_unused',
};
const slack: ChaosSubscriber = { ...hook, id: 'sub_slack', channel: 'slack', path: '/slack/acme' };
const opened = incidentMessage({ id: 'msg_1', type: 'incident.opened', timestamp: '2026-11-29T09:00:00Z' });
const resolved = incidentMessage({ id: 'msg_2', timestamp: '2026-11-29T09:20:00Z' });
const sent: SentMessage[] = [
  { subscriberId: hook.id, messageId: 'msg_1', payload: opened },
  { subscriberId: hook.id, messageId: 'msg_2', payload: resolved },
  { subscriberId: slack.id, messageId: 'msg_3', payload: { ...opened, id: 'msg_3' } },
];

const webhook = (id: string, body: string, verified = true): Received => ({
  request: { method: 'POST', path: hook.path, headers: { 'webhook-id': id }, body },
  verified,
});
const chat = (body: unknown): Received => ({
  request: { method: 'POST', path: slack.path, headers: {}, body: JSON.stringify(body) },
  verified: null,
});
const classify = (received: Received[], inFlight = new Map(), failedAttempts = new Set<string>()) =>
  classifyDeliveries({ subscribers: [hook, slack], received, sent, inFlight, failedAttempts });
const once = [webhook('msg_1', '{"a":1}'), webhook('msg_2', '{"a":2}'), chat(renderSlack(opened))];
const clean = {
  unverified: 0,
  foreign: 0,
  missing: 0,
  duplicated: 0,
  extraReceipts: 0,
  duplicatedWebhooks: 0,
  duplicatedWebhooksSameId: 0,
  idMismatches: 0,
  causes: new Map(),
};

describe('the chaos run’s deliveries', () => {
  it('each sent message received once, a chat body known by the body its message renders to', () => {
    expect(classify(once)).toEqual(clean);
  });

  it('a retry after a crash is a duplicate with its cause; one nobody explains is counted apart', () => {
    const received = [...once, webhook('msg_1', '{"a":1}'), webhook('msg_2', '{"a":2}'), once[2]!];
    expect(classify(received, new Map([['msg_1', 'worker SIGKILL']]), new Set(['msg_3']))).toEqual({
      ...clean,
      duplicated: 3,
      extraReceipts: 3,
      duplicatedWebhooks: 2,
      duplicatedWebhooksSameId: 2,
      causes: new Map([
        ['worker SIGKILL', 1],
        ['unexplained', 1],
        ['a failed attempt', 1],
      ]),
    });
  });

  it('a delivery of another subscriber’s message, an unsigned one and a message never received', () => {
    const received = [webhook('msg_1', '{"a":1}', false), webhook('msg_3', '{"a":3}'), chat({ text: 'x' })];
    expect(classify(received)).toEqual({ ...clean, unverified: 1, foreign: 2, missing: 2 });
  });

  it('one body under two ids, and one id with two bodies', () => {
    const received = [webhook('msg_1', '{"a":1}'), webhook('msg_2', '{"a":1}'), webhook('msg_2', '{"a":2}')];
    expect(classify(received)).toEqual({
      ...clean,
      missing: 1,
      duplicated: 1,
      extraReceipts: 1,
      duplicatedWebhooks: 1,
      duplicatedWebhooksSameId: 0,
      idMismatches: 2,
      causes: new Map([['unexplained', 1]]),
    });
  });
});

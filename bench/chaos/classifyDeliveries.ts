// What each delivery the receivers got was, against the outbox's sent messages: one of its
// subscriber's messages (a webhook by its `webhook-id`, a chat body by the body the sender renders
// from the message), received once or again, and why again.
import { renderDiscord } from '../../projections/notify/formats/discord.ts';
import { renderSlack } from '../../projections/notify/formats/slack.ts';
import type { NotificationMessage } from '../../projections/notify/message.ts';
import type { ChaosSubscriber, Received } from './subscribers.ts';

/** What left a message to be sent again: a crash while it was in flight. */
export type Cause = 'worker SIGKILL' | 'PostgreSQL restart';

export type SentMessage = Readonly<{ subscriberId: string; messageId: string; payload: unknown }>;

export type DeliveryClasses = Readonly<{
  /** Webhook deliveries the standardwebhooks verifier refused. */
  unverified: number;
  /** Deliveries that are no sent message of the subscriber they reached. */
  foreign: number;
  /** Sent messages never received. */
  missing: number;
  /** Messages received more than once, and the receipts beyond the first. */
  duplicated: number;
  extraReceipts: number;
  /** Duplicated webhook messages, and those whose every copy carried one webhook-id. */
  duplicatedWebhooks: number;
  duplicatedWebhooksSameId: number;
  /** One subscriber's same body under two ids, or one id with two bodies. */
  idMismatches: number;
  /** Duplicated messages by what left them to be sent again ('a failed attempt', 'unexplained'). */
  causes: ReadonlyMap<string, number>;
}>;

/** JSON with every object's keys sorted: a body compared whatever order its keys came in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
const chatBody = (subscriber: ChaosSubscriber, payload: unknown): string =>
  canonical((subscriber.channel === 'slack' ? renderSlack : renderDiscord)(payload as NotificationMessage));
const parsedBody = (body: string): string => {
  try {
    return canonical(JSON.parse(body));
  } catch {
    return body;
  }
};

const tally = <K>(keys: readonly K[]): Map<K, number> => {
  const counts = new Map<K, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
};
const addTo = <K, V>(map: Map<K, Set<V>>, key: K, value: V) =>
  map.set(key, (map.get(key) ?? new Set()).add(value));

export const classifyDeliveries = (input: {
  subscribers: readonly ChaosSubscriber[];
  received: readonly Received[];
  sent: readonly SentMessage[];
  /** Messages claimed and unrecorded just after a crash. */
  inFlight: ReadonlyMap<string, Cause>;
  /** Messages with a failed attempt recorded. */
  failedAttempts: ReadonlySet<string>;
}): DeliveryClasses => {
  const byId = new Map(input.subscribers.map((s) => [s.id, s]));
  const byPath = new Map(input.subscribers.map((s) => [s.path, s]));
  // subscriber → message id → what identifies it on arrival (its id, or a chat body)
  const sentOf = new Map<string, Map<string, string>>();
  for (const { subscriberId, messageId, payload } of input.sent) {
    const subscriber = byId.get(subscriberId);
    const key =
      subscriber === undefined || subscriber.channel === 'webhook'
        ? messageId
        : chatBody(subscriber, payload);
    sentOf.set(subscriberId, (sentOf.get(subscriberId) ?? new Map<string, string>()).set(messageId, key));
  }
  const deliveries = input.received.map(({ request }) => {
    const subscriber = byPath.get(request.path);
    const body = parsedBody(request.body);
    const sent = [...(sentOf.get(subscriber?.id ?? '') ?? [])];
    const id =
      subscriber?.channel === 'webhook'
        ? String(request.headers['webhook-id'])
        : (sent.find(([, key]) => key === body)?.[0] ?? null);
    return {
      subscriber: subscriber?.id ?? request.path,
      webhook: subscriber?.channel === 'webhook',
      id,
      body,
    };
  });
  const ofSent = deliveries.filter((d) => d.id !== null && (sentOf.get(d.subscriber)?.has(d.id) ?? false));
  const receipts = tally(ofSent.map((d) => `${d.subscriber}\u0000${d.id}`));
  const duplicated = [...receipts].filter(([, n]) => n > 1);
  const causes = tally(
    duplicated.map(([key]) => {
      const id = key.split('\u0000')[1]!;
      return input.inFlight.get(id) ?? (input.failedAttempts.has(id) ? 'a failed attempt' : 'unexplained');
    }),
  );
  // Ids against bodies, per subscriber: a retry repeats both; anything else is another message.
  const idsOfBody = new Map<string, Set<string>>();
  const bodiesOfId = new Map<string, Set<string>>();
  const webhookCopies = new Map<string, number>();
  for (const d of ofSent) {
    const bodyKey = `${d.subscriber}\u0000${d.body}`;
    addTo(idsOfBody, bodyKey, d.id!);
    addTo(bodiesOfId, `${d.subscriber}\u0000${d.id}`, d.body);
    if (d.webhook) webhookCopies.set(bodyKey, (webhookCopies.get(bodyKey) ?? 0) + 1);
  }
  const duplicatedWebhooks = [...webhookCopies].filter(([, n]) => n > 1).map(([key]) => key);
  return {
    unverified: input.received.filter((r) => r.verified === false).length,
    foreign: deliveries.length - ofSent.length,
    missing: input.sent.length - receipts.size,
    duplicated: duplicated.length,
    extraReceipts: duplicated.reduce((n, [, k]) => n + k - 1, 0),
    duplicatedWebhooks: duplicatedWebhooks.length,
    duplicatedWebhooksSameId: duplicatedWebhooks.filter((key) => idsOfBody.get(key)?.size === 1).length,
    idMismatches:
      [...idsOfBody.values()].filter((ids) => ids.size > 1).length +
      [...bodiesOfId.values()].filter((bodies) => bodies.size > 1).length,
    causes,
  };
};

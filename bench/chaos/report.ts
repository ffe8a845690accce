// The chaos run's table (README, "Reliability").
import { notifyPassed, type NotifyFindings } from './notifyChecks.ts';

export type ChaosReport = Readonly<{
  seconds: number;
  faults: ReadonlyMap<string, number>;
  requests: number;
  unanswered: number;
  status503: number;
  /** 5xx answers other than 503. */
  other5xx: number;
  /** Ingest batches answered 4xx (the run's own events were wrong). */
  refused: number;
  slowOver2s: number;
  slowestMs: number;
  eventsSent: number;
  eventsAppended: number;
  distinctIds: number;
  eventsProjected: number;
  lagEvents: number;
  /** Versions other than the active one still in Redis at the end. */
  staleVersions: number;
  modelKeys: number;
  modelsDiffering: number;
  notify: NotifyFindings;
}>;

export const passed = (r: ChaosReport): boolean =>
  r.other5xx === 0 &&
  r.refused === 0 &&
  r.slowOver2s === 0 &&
  r.eventsAppended === r.eventsSent &&
  r.distinctIds === r.eventsSent &&
  r.eventsProjected === r.eventsAppended &&
  r.lagEvents === 0 &&
  r.modelsDiffering === 0 &&
  r.staleVersions === 0 &&
  r.modelKeys > 0 &&
  notifyPassed(r.notify);

export const formatReport = (r: ChaosReport): string => {
  const faults = [...r.faults].map(([name, n]) => `${name} ×${n}`).join(', ');
  const total = [...r.faults.values()].reduce((a, b) => a + b, 0);
  const rows: [string, string][] = [
    ['duration', `${r.seconds.toFixed(0)} s`],
    ['faults injected', `${total}: ${faults}`],
    ['requests sent (ingest + reads)', String(r.requests)],
    ['unanswered (process killed)', String(r.unanswered)],
    ['503 answers', String(r.status503)],
    ['5xx other than 503', String(r.other5xx)],
    ['ingest batches refused (4xx)', String(r.refused)],
    ['requests slower than 2 s', `${r.slowOver2s} (slowest ${Math.round(r.slowestMs)} ms)`],
    ['events sent / appended / distinct ids', `${r.eventsSent} / ${r.eventsAppended} / ${r.distinctIds}`],
    ['events appended / projected (lag)', `${r.eventsAppended} / ${r.eventsProjected} (${r.lagEvents})`],
    ['stale versions left in Redis', String(r.staleVersions)],
    ['read-model keys compared / differing', `${r.modelKeys} / ${r.modelsDiffering}`],
    ...notifyRows(r.notify),
    ['result', passed(r) ? 'PASS' : 'FAIL'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [
    `| ${'measure'.padEnd(width)} | value |`,
    `| ${'-'.repeat(width)} | ----- |`,
    ...rows.map(([k, v]) => `| ${k.padEnd(width)} | ${v} |`),
  ].join('\n');
};

const notifyRows = (n: NotifyFindings): [string, string][] => {
  const causes = [...n.causes].map(([cause, k]) => `${cause} ×${k}`).join(', ');
  return [
    ['subscribers (of which Slack / Discord)', `${n.subscribers} (${n.chatSubscribers})`],
    ['outbox rows: sent / coalesced / unsettled', `${n.rows}: ${n.sent} / ${n.coalesced} / ${n.unsettled}`],
    ['notifier checkpoint at the log head', n.checkpointAtHead ? 'yes' : 'no'],
    ['deliveries received', String(n.received)],
    ['webhooks failing standardwebhooks verification', String(n.unverified)],
    ['chat bodies refused by the stand-ins', String(n.chatRefused)],
    ['deliveries not a sent message of their subscriber', String(n.foreign)],
    ['sent messages never received', String(n.missing)],
    [
      'messages received more than once (extra receipts)',
      `${n.duplicated} (${n.extraReceipts})${causes === '' ? '' : `: ${causes}`}`,
    ],
    ['duplicated webhooks with one webhook-id', `${n.duplicatedWebhooksSameId} of ${n.duplicatedWebhooks}`],
    ['one body under two ids, or one id with two bodies', String(n.idMismatches)],
    ['deliveries after the clean rebuild', String(n.afterRebuild)],
  ];
};

// The chaos run's table (README, "Reliability").
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
  r.modelKeys > 0;

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
    ['result', passed(r) ? 'PASS' : 'FAIL'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [
    `| ${'measure'.padEnd(width)} | value |`,
    `| ${'-'.repeat(width)} | ----- |`,
    ...rows.map(([k, v]) => `| ${k.padEnd(width)} | ${v} |`),
  ].join('\n');
};

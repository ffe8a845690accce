// `npx tsx bench/fillUpdatedCost.ts [monitors] [incidents]`: what filling the page's latest event
// time into a stored Statuspage document costs the API per read (the response cache keeps the
// result, so once per page change and process), against a SHA-1 of the whole body, which the
// stored-ETag derivation avoids. Documents rendered by renderStatuspage for a page of 25 monitors
// (5 never checked) and 50 open incidents naming 3 monitors each, by default. Prints each
// document's size, its slots and the median µs of one fill.
import { renderStatuspage, statuspageDocuments } from '../projections/statuspage/documents.ts';
import type { IncidentDoc, MonitorSnapshot } from '../projections/types.ts';
import { etagOf, fromBuffer, toBytes } from '../projections/store/bytes.ts';
import { fillStored, updatedIso } from '../src/readModels/fillUpdated.ts';
import { UPDATED_SLOT_JSON } from '../projections/render/updatedSlot.ts';

const MONITORS = Number(process.argv[2] ?? 25);
const INCIDENTS = Number(process.argv[3] ?? 50);
const NOW = Date.parse('2026-11-22T12:00:00Z');

const monitors: MonitorSnapshot[] = Array.from({ length: MONITORS }, (_, i) => ({
  id: i + 1,
  name: `Monitor ${String(i + 1)}`,
  type: 'http',
  impact: 'partial',
  position: null,
  firstAt: i % 5 === 4 ? null : NOW - 86_400_000,
  lastStatus: i % 5 === 4 ? null : 'up',
  down: [],
  openDownStart: null,
  hours: new Map(),
  minutes: new Map(),
}));
const incidents: IncidentDoc[] = Array.from({ length: INCIDENTS }, (_, i) => ({
  id: `inc-${String(i)}`,
  title: `Incident ${String(i)} on the API`,
  state: 'identified',
  startedAt: NOW - i * 3_600_000,
  resolvedAt: null,
  components: [1, 2, 3].map((k) => `Monitor ${String(((i + k) % MONITORS) + 1)}`),
  updates: [
    { status: 'investigating', message: 'Errors on the API.', createdAt: NOW - i * 3_600_000 },
    { status: 'identified', message: 'Found it.', createdAt: NOW - i * 3_600_000 + 60_000 },
  ],
}));
const documents = renderStatuspage({
  slug: 'bench',
  title: 'Bench',
  pageUrl: 'http://status.test/s/bench',
  overall: 'operational',
  monitors,
  incidents,
  maintenances: [],
  nowMs: NOW,
});

const medianMicros = (run: () => unknown): number => {
  const rounds = 25;
  const perRound = 400;
  const times: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < perRound; i += 1) run();
    times.push(Number(process.hrtime.bigint() - start) / 1000 / perRound);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
};

let at = NOW;
for (const name of statuspageDocuments) {
  const stored = fromBuffer(Buffer.from(toBytes(documents[name]), 'utf8'))!;
  const slots = documents[name].split(UPDATED_SLOT_JSON).length - 1;
  const fill = medianMicros(() => fillStored(stored, updatedIso((at += 1000))));
  const hash = medianMicros(() => etagOf(documents[name]));
  console.log(
    `${name.padEnd(32)} ${String(stored.body.length).padStart(7)} B ${String(slots).padStart(4)} slots` +
      `  fill ${fill.toFixed(1).padStart(6)} µs  (SHA-1 of the body ${hash.toFixed(1).padStart(6)} µs)`,
  );
}

// Turns one batch of log rows into Redis commands: page documents evolve in memory, checks are
// grouped per monitor (applyChecks), and what must be rendered again is marked dirty. Nothing is
// written here; commitBatch applies the commands atomically with the checkpoint.
import type { Redis } from 'ioredis';
import { evolvePageState } from '../../projections/pageState.ts';
import type { PageState } from '../../projections/types.ts';
import { eventTypes } from '../events/catalogue.ts';
import { StoredEvent } from '../events/storedEvent.ts';
import type { LogRow } from '../eventLog/readAfter.ts';
import { monitorKeys, pageKeys, partitionKeys } from '../readModels/keys.ts';
import { formatTimestamp } from '../shared/time.ts';
import { applyChecks, isLate, loadLateSpans, type Check, type MonitorChecks } from './applyChecks.ts';
import { commandList, type CommandList } from './commands.ts';
import { deleteMonitorCommands } from './deleteMonitor.ts';
import { parseTimelineHead, type TimelineHead } from './timelineStore.ts';

export type DeadLetter = Readonly<{ position: string; error: string }>;
export type BatchEffects = Readonly<{ out: CommandList; deadLetters: DeadLetter[]; applied: number }>;

type Loaded = {
  states: Map<string, PageState | null>;
  updated: Map<string, number>;
  heads: Map<number, TimelineHead | null>;
};

const knownTypes = new Set<string>(eventTypes);

const toEvent = (row: LogRow) =>
  StoredEvent.parse({
    type: row.type,
    page: row.page,
    at: formatTimestamp(row.at),
    position: row.position,
    data: row.data,
  });

const load = async (redis: Redis, tag: string, pages: string[], monitorIds: number[]): Promise<Loaded> => {
  const pipeline = redis.pipeline();
  for (const slug of pages) pipeline.get(pageKeys(tag, slug).state).get(pageKeys(tag, slug).updated);
  for (const id of monitorIds) pipeline.hgetall(monitorKeys(tag, id).timeline);
  const results = (await pipeline.exec()) ?? [];
  const value = (i: number) => results[i]?.[1];
  const loaded: Loaded = { states: new Map(), updated: new Map(), heads: new Map() };
  pages.forEach((slug, i) => {
    const state = value(i * 2) as string | null;
    loaded.states.set(slug, state ? (JSON.parse(state) as PageState) : null);
    loaded.updated.set(slug, Number(value(i * 2 + 1) ?? 0));
  });
  monitorIds.forEach((id, i) => {
    loaded.heads.set(id, parseTimelineHead((value(pages.length * 2 + i) ?? {}) as Record<string, string>));
  });
  return loaded;
};

/** Builds the commands that project `rows` (all of one partition) into `tag`. */
export const applyBatch = async (
  redis: Redis,
  tag: string,
  rows: readonly LogRow[],
  now: number,
): Promise<BatchEffects> => {
  const out = commandList();
  const pk = partitionKeys(tag);
  const deadLetters: DeadLetter[] = [];
  const events: StoredEvent[] = [];
  for (const row of rows) {
    // A type this version does not know (written by a newer one) is skipped, not dead-lettered.
    if (!knownTypes.has(row.type)) continue;
    try {
      events.push(toEvent(row));
    } catch (error) {
      deadLetters.push({ position: row.position, error: `unreadable event: ${(error as Error).message}` });
    }
  }
  const pages = [...new Set(events.map((e) => e.page))];
  const monitorIds = [
    ...new Set(events.flatMap((e) => (e.type === 'check.recorded' ? [e.data.monitor_id] : []))),
  ];
  const { states, updated, heads } = await load(redis, tag, pages, monitorIds);
  const checks = new Map<number, Check[]>();
  const changedStates = new Set<string>();
  const marked = new Set<string>();
  const mark = (set: string, member: string) => {
    const key = `${set}\u0000${member}`;
    if (marked.has(key)) return;
    marked.add(key);
    out.push('SADD', set, member);
  };

  for (const event of events) {
    const slug = event.page;
    const atMs = Date.parse(event.at);
    const state = states.get(slug) ?? null;
    if (event.type === 'check.recorded') {
      const { monitor_id: id, status, response_time_ms: rt } = event.data;
      if (!state || state.deleted || !state.monitors[String(id)]) continue; // monitor gone: nothing to show
      const list = checks.get(id) ?? [];
      checks.set(id, list);
      list.push({ at: atMs, position: BigInt(event.position), status, responseTimeMs: rt });
    } else {
      try {
        const next = evolvePageState(state, event);
        states.set(slug, next);
        changedStates.add(slug);
        if (event.type === 'page.deleted' || event.type === 'monitor.removed') {
          const gone = Object.keys(state?.monitors ?? {}).filter((id) => !next?.monitors[id]);
          for (const id of gone) {
            checks.delete(Number(id));
            heads.set(Number(id), null);
            deleteMonitorCommands(out, tag, Number(id), now);
            out.push('DEL', pageKeys(tag, slug).availability(Number(id))); // gone with its monitor
          }
        }
        if (event.type === 'monitor.configured')
          mark(pk.dirtyAvailability, `${slug}|${event.data.monitor_id}`);
        if (event.type.startsWith('incident.') || event.type.startsWith('page.'))
          mark(pk.dirtyIncidents, slug);
        if (event.type.startsWith('maintenance.') || event.type.startsWith('page.'))
          mark(pk.dirtyMaintenances, slug);
      } catch (error) {
        deadLetters.push({ position: event.position, error: (error as Error).message });
        continue;
      }
    }
    if (atMs > (updated.get(slug) ?? 0)) updated.set(slug, atMs);
    mark(pk.dirty, slug);
  }

  const perMonitor: MonitorChecks[] = [...checks].map(([monitorId, list]) => ({
    monitorId,
    head: heads.get(monitorId) ?? null,
    checks: list,
  }));
  const spans = await loadLateSpans(redis, tag, perMonitor.filter(isLate));
  const pageOf = new Map(
    events.flatMap((e) => (e.type === 'check.recorded' ? [[e.data.monitor_id, e.page] as const] : [])),
  );
  for (const m of perMonitor) {
    const { timelineChanged } = applyChecks(out, tag, m, spans.get(m.monitorId), now);
    if (timelineChanged) mark(pk.dirtyAvailability, `${pageOf.get(m.monitorId)}|${m.monitorId}`);
  }
  for (const slug of changedStates) {
    const state = states.get(slug);
    if (state) out.push('SET', pageKeys(tag, slug).state, JSON.stringify(state));
  }
  for (const slug of pages) {
    mark(pk.pages, slug);
    const at = updated.get(slug);
    if (at) out.push('SET', pageKeys(tag, slug).updated, at);
  }
  return { out, deadLetters, applied: events.length };
};

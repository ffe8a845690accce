// deploy/grafana/statuspage.json imports as is: one data source variable that every panel and
// query uses (no __inputs to fill in), panels laid out on the grid, queries with distinct refIds;
// and every metric the rules and the dashboard name is explained in docs/operations.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dashboard, dashboardExpressions, metricsTheKitNames, root } from '../support/operatorKit.ts';

type Target = { refId: string; expr: string; datasource: unknown };
type Panel = {
  type: string;
  title: string;
  datasource?: unknown;
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: Target[];
};
const SOURCE = { type: 'prometheus', uid: '${datasource}' };

describe('the Grafana dashboard', () => {
  const board = dashboard() as unknown as {
    uid: string;
    title: string;
    schemaVersion: number;
    panels: Panel[];
    templating: { list: { name: string; type: string; query: unknown }[] };
    __inputs?: unknown;
  };

  it('imports without inputs: one Prometheus data source variable used by every query', () => {
    expect(board.uid).toBe('statuspage-ops');
    expect(board.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(board.__inputs).toBeUndefined();
    expect(board.templating.list.find((v) => v.name === 'datasource')).toMatchObject({
      type: 'datasource',
      query: 'prometheus',
    });
    for (const panel of board.panels) {
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      if (panel.type === 'row') continue;
      expect(panel.datasource, panel.title).toEqual(SOURCE);
      const targets = panel.targets ?? [];
      expect(targets.length, panel.title).toBeGreaterThan(0);
      expect(new Set(targets.map((t) => t.refId)).size).toBe(targets.length);
      for (const target of targets) expect(target.datasource).toEqual(SOURCE);
    }
    const ids = board.panels.map((panel) => (panel as { id?: number }).id);
    expect(new Set(ids).size).toBe(board.panels.length);
    expect(ids.every((id) => Number.isInteger(id))).toBe(true);
    // Panels do not overlap.
    const cells = new Set<string>();
    for (const { gridPos: g, title } of board.panels)
      for (let x = g.x; x < g.x + g.w; x++)
        for (let y = g.y; y < g.y + g.h; y++) {
          expect(cells.has(`${x},${y}`), `${title} overlaps at ${x},${y}`).toBe(false);
          cells.add(`${x},${y}`);
        }
  });

  it('shows lag, throughput, requests and latency per route, the cache, streams and Redis memory', () => {
    const text = dashboardExpressions().join('\n');
    for (const metric of [
      'projector_partition_lag_seconds',
      'projector_events_projected_total',
      'projector_renders_total',
      'http_requests_total',
      'http_request_duration_seconds_bucket',
      'read_cache_requests_total',
      'live_streams_open',
      'redis_memory_used_bytes',
    ])
      expect(text).toContain(metric);
  });

  it('every metric named by the rules and the dashboard is explained in docs/operations.md', () => {
    const docs = readFileSync(`${root}/docs/operations.md`, 'utf8');
    const base = (name: string) => name.replace(/_(bucket|sum|count)$/, '');
    for (const name of metricsTheKitNames()) expect(docs, name).toContain(`| \`${base(name)}\``);
  });
});

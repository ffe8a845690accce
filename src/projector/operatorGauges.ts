// The gauges an operator alerts on beside the projection lag (docs/operations.md, "Metrics").
import { Cluster } from 'ioredis';
import { Gauge, type Registry } from 'prom-client';
import { failingDependencies } from '../http/probes.ts';
import { readRebuildProgress } from '../store/control/rebuildProgress.ts';
import type { GuardedCollectors } from '../shared/guardedCollectors.ts';
import { COLLECTOR_TIMEOUT_MS } from '../shared/guardedCollectors.ts';
import type { DatabasePool } from 'slonik';
import type { RedisClient } from '../store/redisClient.ts';

const infoField = (info: string, field: string): string | null =>
  new RegExp(`^${field}:(\\S+)`, 'm').exec(info)?.[1] ?? null;

const DEPENDENCIES = ['postgres', 'redis'] as const;

export const registerOperatorGauges = (
  registry: Registry,
  collectors: GuardedCollectors,
  sources: Readonly<{ db: DatabasePool; redis: RedisClient; prefix: string }>,
): void => {
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry], collect: collectors.collect });

  const running = gauge('projector_rebuild_running', '1 while a rebuild holds the rebuild lock');
  const replayed = gauge('projector_rebuild_events_replayed', 'Events the running rebuild has replayed');
  const idle = gauge(
    'projector_rebuild_progress_age_seconds',
    'Seconds since the running rebuild last moved on (0 when none runs)',
  );
  collectors.add('rebuild', async () => {
    const progress = await readRebuildProgress(sources.redis, sources.prefix);
    running.set(progress.running ? 1 : 0);
    replayed.set(progress.events);
    const last = progress.updatedAtMs ?? progress.startedAtMs;
    idle.set(progress.running && last !== null ? Math.max(0, (Date.now() - last) / 1000) : 0);
  });

  const used = gauge('redis_memory_used_bytes', 'Redis used_memory, per server (INFO memory)', ['server']);
  const max = gauge('redis_memory_max_bytes', 'Redis maxmemory (0: no limit), per server', ['server']);
  const noeviction = gauge(
    'redis_maxmemory_policy_noeviction',
    '1 when the server runs with maxmemory-policy noeviction, as the read models need',
    ['server'],
  );
  collectors.add('redis_memory', async () => {
    const { redis } = sources;
    const servers = redis instanceof Cluster ? redis.nodes('master') : [redis];
    const infos = await Promise.all(
      servers.map(async (server) => ({ server, info: await server.info('memory') })),
    );
    for (const { server, info } of infos) {
      const labels = { server: `${server.options.host ?? 'localhost'}:${server.options.port ?? 6379}` };
      used.set(labels, Number(infoField(info, 'used_memory') ?? 0));
      max.set(labels, Number(infoField(info, 'maxmemory') ?? 0));
      noeviction.set(labels, infoField(info, 'maxmemory_policy') === 'noeviction' ? 1 : 0);
    }
  });

  const up = gauge('readiness_dependency_up', '1 when the dependency answers, as GET /readyz asks it', [
    'dependency',
  ]);
  collectors.add('readiness', async () => {
    // Within the collector's own bound, so an unanswered dependency reads 0 rather than stale.
    const failing = await failingDependencies(sources, COLLECTOR_TIMEOUT_MS - 200);
    for (const dependency of DEPENDENCIES) up.set({ dependency }, failing.includes(dependency) ? 0 : 1);
  });
};

// The integrations' operator routes over a projector environment, with its clock and no
// projector to wake; and Alertmanager-shaped payloads.
import express from 'express';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { alertRoutes } from '../../src/integrations/alertRoutes.ts';
import { integrationMetrics } from '../../src/integrations/integrationMetrics.ts';
import { tokenRoutes } from '../../src/integrations/tokenRoutes.ts';
import { errorHandler, notFoundHandler } from '../../src/http/errors.ts';
import type { ProjectorEnv } from './projectorEnv.ts';
import { INGEST_TOKEN } from './testServers.ts';

export const integrationsApp = (env: ProjectorEnv, registry = new Registry()): express.Express =>
  express()
    .use(
      alertRoutes({
        db: env.t.db,
        ingestToken: INGEST_TOKEN,
        clock: env.now,
        log: pino({ level: 'silent' }),
        wake: () => Promise.resolve(),
        metrics: integrationMetrics(registry),
      }),
    )
    .use(tokenRoutes({ db: env.t.db, ingestToken: INGEST_TOKEN, publicBaseUrl: 'http://status.test' }))
    .use(notFoundHandler)
    .use(errorHandler(pino({ level: 'silent' })));

const ZERO_TIME = '0001-01-01T00:00:00Z';

export type TestAlert = {
  fingerprint: string;
  labels: Record<string, string>;
  startsAt: string;
  endsAt?: string;
  annotations?: Record<string, string>;
};

/** One alert as Alertmanager sends it: resolved when it has an end. */
export const amAlert = (alert: TestAlert) => ({
  status: alert.endsAt === undefined ? 'firing' : 'resolved',
  labels: alert.labels,
  annotations: alert.annotations ?? {},
  startsAt: alert.startsAt,
  endsAt: alert.endsAt ?? ZERO_TIME,
  generatorURL: 'http://prometheus.test/graph',
  fingerprint: alert.fingerprint,
});

/** An Alertmanager webhook (version 4) notification of `alerts` for group `groupKey`. */
export const amPayload = (alerts: TestAlert[], groupKey = '{}:{alertname="Down"}') => {
  const sent = alerts.map(amAlert);
  return {
    version: '4',
    groupKey,
    truncatedAlerts: 0,
    status: sent.some((a) => a.status === 'firing') ? 'firing' : 'resolved',
    receiver: 'statuspage',
    groupLabels: {},
    commonLabels: {},
    commonAnnotations: {},
    externalURL: 'http://alertmanager.test',
    alerts: sent,
  };
};

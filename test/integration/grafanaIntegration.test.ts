// POST /v1/integrations/grafana/{slug} with the webhook contact point's payload as Grafana's
// documentation gives it (version "1": orgId, values or valueString, silenceURL, title, state…),
// mapped by a label chosen in the query (?component_label=zone): firing, then resolved.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { integrationsApp } from '../support/integrationsFixture.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { INGEST_TOKEN, appOf } from '../support/testServers.ts';
import { loadConfig } from '../../src/config.ts';

const alert = (zone: string, name: string, startsAt: string, fingerprint: string, rule: string) => ({
  status: 'firing',
  labels: { alertname: name, team: 'blue', zone },
  annotations: {
    description: `The system has ${name.toLowerCase()}`,
    runbook_url: 'https://myrunbook.com/runbook/1234',
    summary: `This alert was triggered for zone ${zone}`,
  },
  startsAt,
  endsAt: '0001-01-01T00:00:00Z',
  generatorURL: `https://play.grafana.org/alerting/${rule}/edit`,
  fingerprint,
  silenceURL: `https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3DT2%2Cteam%3Dblue%2Czone%3D${zone}`,
  dashboardURL: '',
  panelURL: '',
  values: { B: 44.23943737541908, C: 1 },
});

// The documented example (Grafana's webhook notifier page).
const documented = {
  receiver: 'My Super Webhook',
  status: 'firing',
  orgId: 1,
  alerts: [
    alert('us-1', 'High memory usage', '2021-10-12T09:51:03.157076+02:00', 'c6eadffa33fcdf37', '1afz29v7z'),
    alert('eu-1', 'High CPU usage', '2021-10-12T09:56:03.157076+02:00', 'bc97ff14869b13e3', 'd1rdpdv7k'),
  ],
  groupLabels: {},
  commonLabels: { team: 'blue' },
  commonAnnotations: {},
  externalURL: 'https://play.grafana.org/',
  version: '1',
  groupKey: '{}:{}',
  truncatedAlerts: 0,
  title: '[FIRING:2] (blue)',
  state: 'alerting',
  message: '**Firing**\n\nLabels:\n - alertname = T2\n - team = blue\n - zone = us-1\n',
};

let env: ProjectorEnv;
let app: ReturnType<typeof integrationsApp>;

const post = (body: unknown) =>
  request(app)
    .post('/v1/integrations/grafana/play?component_label=zone')
    .set('Authorization', `Bearer ${INGEST_TOKEN}`)
    .send(body as object);

beforeAll(async () => {
  env = await startProjectorEnv({ now: '2021-10-12T09:00:00Z' });
  await env.append(
    pageConfigured('play', {}, '2021-10-01T00:00:00Z'),
    monitorConfigured('play', 21, { name: 'us-1' }, '2021-10-01T00:00:00Z'),
    monitorConfigured('play', 22, { name: 'eu-1' }, '2021-10-01T00:00:00Z'),
  );
  app = integrationsApp(env);
});
afterAll(() => env.close());

describe('the Grafana endpoint', () => {
  it('takes the documented payload, and its older form with valueString', async () => {
    expect((await post(documented)).body).toEqual({ accepted: 2, duplicates: 0, unmapped: [] });
    const older = {
      ...documented,
      alerts: documented.alerts.map(({ values: _values, ...rest }) => ({
        ...rest,
        valueString: "[ metric='' labels={} value=14151.331895396988 ]",
      })),
    };
    expect((await post(older)).body).toEqual({ accepted: 0, duplicates: 2, unmapped: [] });
    // An Alertmanager payload is not Grafana's.
    const wrong = await post({ ...documented, version: '4' });
    expect([wrong.status, wrong.body]).toEqual([
      400,
      {
        error: 'invalid payload',
        details: [{ path: 'version', message: 'Invalid literal value, expected "1"' }],
      },
    ]);
  });

  it('resolves us-1: the page shows both alerts’ intervals to the second', async () => {
    const resolved = {
      ...documented,
      status: 'resolved',
      alerts: [{ ...documented.alerts[0]!, status: 'resolved', endsAt: '2021-10-12T10:01:03.157076+02:00' }],
    };
    expect((await post(resolved)).body).toEqual({ accepted: 1, duplicates: 1, unmapped: [] });
    await env.project();
    const config = loadConfig({ PUBLIC_BASE_URL: 'http://status.test' });
    const api = appOf(env, config);
    const downtime = async (monitor: number) =>
      (
        (await request(api).get(`/api/status-pages/play/monitors/${monitor}/availability?period=24h`))
          .body as {
          availability: { downtime_seconds: number };
        }
      ).availability.downtime_seconds;
    expect(await downtime(21)).toBe(600); // 07:51:03.157Z – 08:01:03.157Z
    expect(await downtime(22)).toBe(3836); // 07:56:03.157Z – now 09:00:00Z: 3836.843 s, floored
  });
});

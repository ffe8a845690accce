// POST /v1/integrations/grafana/{slug} with the webhook contact point's payload as Grafana's
// documentation gives it (version "1": orgId, values or valueString, silenceURL, title, state…),
// mapped by a label chosen in the query (?component_label=zone): firing, then resolved.
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorConfigured, pageConfigured } from '../support/events.ts';
import { grafanaDocumented as documented } from '../support/grafanaPayload.ts';
import { integrationsApp } from '../support/integrationsFixture.ts';
import { startProjectorEnv, type ProjectorEnv } from '../support/projectorEnv.ts';
import { INGEST_TOKEN, appOf } from '../support/testServers.ts';
import { loadConfig } from '../../src/config.ts';

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
